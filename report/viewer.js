// The report's game viewer: reads the games from #gv-data, fills the
// filters and the game list, and draws the position of the current ply from
// the fragment dictionary, exactly as games.WriteSVG writes it.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("gv-data").textContent);
  // Each fragment is its skeleton's pieces with its numbers between them
  // (see splitFragment in viewer.go): rebuild the texts once.
  var frags = data.frags.map(function (f) {
    var parts = data.skels[f[0]], s = parts[0];
    for (var k = 1; k < f.length; k++) { s += f[k] + parts[k]; }
    return s;
  });
  var $ = function (id) { return document.getElementById(id); };
  var sel = { player: $("gv-player"), result: $("gv-result"), game: $("gv-game") };
  var state = { game: -1, ply: 0, positions: null };

  // decode rebuilds a position's fragment numbers from its encoding and the
  // position before it (see encodePosition in viewer.go).
  function decode(prev, enc) {
    if (enc[0] === -1) { return enc.slice(1); }
    var n = enc[0], remove = {}, out = [], i, k;
    for (i = 1; i <= n; i++) { remove[enc[i]] = true; }
    for (i = 0; i < prev.length; i++) { if (!remove[i]) { out.push(prev[i]); } }
    for (k = 1 + n; k + 1 < enc.length; k += 2) { out.splice(enc[k], 0, enc[k + 1]); }
    return out;
  }

  function positions(g) {
    var out = [], prev = [], i;
    for (i = 0; i < g.x.length; i++) { prev = decode(prev, g.x[i]); out.push(prev); }
    return out;
  }

  // svg returns the picture of position ply of game gi, "" without one;
  // past the ply where a replay stopped (the game's note says why), the
  // last position it reached.
  function svg(gi, ply) {
    var g = data.games[gi];
    if (g.b < 0) { return ""; }
    var pos = gi === state.game ? state.positions : positions(g);
    if (pos.length === 0) { return ""; }
    ply = Math.min(ply, pos.length - 1);
    var b = data.boards[g.b], ids = pos[ply];
    var s = '<svg xmlns="http://www.w3.org/2000/svg" width="' + b.w + '" height="' + b.h +
      '" viewBox="0 0 ' + b.w + " " + b.h + '" font-family="sans-serif">\n' + b.svg;
    for (var i = 0; i < ids.length; i++) { s += frags[ids[i]] + "\n"; }
    return s + "</svg>\n";
  }

  function resultWord(g) {
    if (g.w === -1) { return "draw"; }
    return g.p[g.w] + " won";
  }

  function matches(g) {
    var p = sel.player.value, r = sel.result.value;
    if (p !== "" && g.p[0] !== p && g.p[1] !== p) { return false; }
    switch (r) {
      case "": return true;
      case "draw": return g.w === -1;
      case "forfeit": return g.f !== -1;
      default: return g.r === r;
    }
  }

  function text(tag, s) { var e = document.createElement(tag); e.textContent = s; return e; }

  function fillGames() {
    var keep = sel.game.value, n = 0;
    sel.game.textContent = "";
    for (var i = 0; i < data.games.length; i++) {
      var g = data.games[i];
      if (!matches(g)) { continue; }
      var o = text("option", "#" + g.i + "  " + g.p[0] + " – " + g.p[1] + "  " + g.r +
        (g.t !== "normal" ? " (" + g.t + ")" : "") + "  " + g.m.length + " plies");
      o.value = String(i);
      sel.game.appendChild(o);
      n++;
    }
    $("gv-count").textContent = n + " of " + data.games.length + " games";
    if (keep !== "" && sel.game.querySelector('option[value="' + keep + '"]')) {
      sel.game.value = keep;
    }
    show(n ? Number(sel.game.value) : -1, 0);
  }

  function show(gi, ply) {
    var board = $("gv-board"), moves = $("gv-moves"), note = $("gv-note");
    if (gi !== state.game) {
      state.game = gi;
      state.positions = gi >= 0 ? positions(data.games[gi]) : null;
      moves.textContent = "";
      if (gi >= 0) {
        data.games[gi].m.forEach(function (m, k) {
          var li = text("li", m);
          li.addEventListener("click", function () { show(state.game, k + 1); });
          moves.appendChild(li);
        });
      }
    }
    if (gi < 0) {
      board.textContent = "";
      $("gv-ply").textContent = "No game matches the filters.";
      note.hidden = true;
      $("gv-stats").textContent = "";
      remember();
      return;
    }
    var g = data.games[gi];
    ply = Math.max(0, Math.min(ply, g.m.length));
    state.ply = ply;
    board.innerHTML = svg(gi, ply);
    var last = ply > 0 ? " after " + g.m[ply - 1] : " (start)";
    $("gv-ply").textContent = "Ply " + ply + " of " + g.m.length + last + " — " + g.r + ", " +
      resultWord(g) + (g.t !== "normal" ? " by " + g.t : "") + (g.d ? ": " + g.d : "");
    var notes = [];
    if (g.n) { notes.push(g.n); }
    if (g.s) { notes.push("started from the position " + g.s); }
    note.textContent = notes.join("; ");
    note.hidden = notes.length === 0;
    showStats(g, ply);
    var items = moves.children;
    for (var k = 0; k < items.length; k++) {
      items[k].className = k === ply - 1 ? "gv-current" : "";
    }
    // Keep the current move in view, scrolling the list only (not the page).
    var li = ply > 0 ? items[ply - 1] : null;
    if (li && (li.offsetTop < moves.scrollTop || li.offsetTop + li.offsetHeight > moves.scrollTop + moves.clientHeight)) {
      moves.scrollTop = li.offsetTop - moves.clientHeight / 2;
    }
    remember();
  }

  // msText writes a time in ms for people: "850.5 ms", "9.59 s"; a
  // player without a clock (results.NoClock) gets a dash.
  function msText(ms) {
    if (ms < 0) { return "–"; }
    return ms < 1000 ? (Math.round(ms * 10) / 10) + " ms" : (ms / 1000).toFixed(2) + " s";
  }

  // showStats shows what the record keeps of the move that led to ply:
  // the mover's time, depth, score, nodes and info, and the clocks after
  // it; at the last ply also a move that forfeited the game.
  function showStats(g, ply) {
    var box = $("gv-stats");
    box.textContent = "";
    var k = ply - 1 - (g.o || 0), per = g.j ? 2 : 1, rows = [];
    if (g.st) {
      for (var i = Math.max(0, k * per); i < (k + 1) * per && i < g.st.length; i++) { rows.push(g.st[i]); }
      if (ply === g.m.length) {
        for (i = Math.max(0, (k + 1) * per); i < g.st.length; i++) { rows.push(g.st[i]); }
      }
    }
    if (rows.length) {
      var t = document.createElement("table"), head = document.createElement("tr");
      ["mover", "time", "depth", "score", "nodes", "info"].forEach(function (h) { head.appendChild(text("th", h)); });
      t.appendChild(head);
      rows.forEach(function (r) {
        var tr = document.createElement("tr");
        [g.p[r[0]], msText(r[1]), r[2] || "", r[3] || (r[2] ? "0" : ""), r[4] || "", r[5] || ""].forEach(function (v) {
          tr.appendChild(text("td", String(v)));
        });
        t.appendChild(tr);
      });
      box.appendChild(t);
    }
    if (g.c && k >= 0 && k < g.c.length) {
      box.appendChild(text("p", "Clocks after this move: " + g.p[0] + " " + msText(g.c[k][0]) + ", " +
        g.p[1] + " " + msText(g.c[k][1])));
    }
    showAccuracy(box, g, ply);
  }

  // showAccuracy shows, where the move played from this position was
  // scored against perfect play (arena report --accuracy), the exact
  // value of every legal move from the mover's view (the best marked),
  // the move played and what it lost.
  function showAccuracy(box, g, ply) {
    var a = g.a && g.a[ply];
    if (!a || ply >= g.m.length) { return; }
    box.appendChild(text("p", "Against perfect play: " + g.m[ply] + " is worth " + a[2] + " (the position " + a[1] +
      "): it loses " + a[0] + (a[3] ? ", a blunder" : "") + "."));
    var t = document.createElement("table"), head = document.createElement("tr");
    t.className = "gv-values";
    ["move", "value", ""].forEach(function (h) { head.appendChild(text("th", h)); });
    t.appendChild(head);
    a[4].forEach(function (m) {
      var tr = document.createElement("tr");
      if (m[0] === g.m[ply]) { tr.className = "gv-current"; }
      [m[0], m[1] === null ? "?" : String(m[1]), (m[2] ? "best" : "") + (m[0] === g.m[ply] ? " played" : "")].forEach(function (v) {
        tr.appendChild(text("td", v));
      });
      t.appendChild(tr);
    });
    box.appendChild(t);
  }

  // A live report reloads itself every few seconds: remember the filters,
  // the game (its record index and players) and the ply for this tab and
  // page, and come back to them after the reload.
  var memoryKey = "arena-viewer:" + location.pathname;
  function remember() {
    try {
      var g = state.game >= 0 ? data.games[state.game] : null;
      sessionStorage.setItem(memoryKey, JSON.stringify({ player: sel.player.value, result: sel.result.value,
        game: g ? [g.i, g.p[0], g.p[1]] : null, ply: state.ply }));
    } catch (e) { /* no storage here (a private window, a strict browser): nothing to remember */ }
  }
  function recall() {
    try { return JSON.parse(sessionStorage.getItem(memoryKey) || "null"); } catch (e) { return null; }
  }
  function restore(m) {
    if (!m || !m.game) { return; }
    for (var i = 0; i < data.games.length; i++) {
      var g = data.games[i];
      if (g.i === m.game[0] && g.p[0] === m.game[1] && g.p[1] === m.game[2] && matches(g)) {
        sel.game.value = String(i);
        show(i, m.ply);
        return;
      }
    }
  }

  function step(d) { if (state.game >= 0) { show(state.game, state.ply + d); } }

  var players = {};
  data.games.forEach(function (g) { players[g.p[0]] = true; players[g.p[1]] = true; });
  Object.keys(players).sort().forEach(function (p) {
    var o = text("option", p);
    o.value = p;
    sel.player.appendChild(o);
  });
  if (data.omitted > 0) {
    var om = $("gv-omitted"), why = data.limit === "bytes" ?
      "to keep the report near " + Math.round(data.max_bytes / 1e6) + " MB" : "by the cap on games";
    om.textContent = "The viewer holds the first " + data.games.length + " games; " + data.omitted +
      " more were left out " + why + " (arena report --viewer-games N changes it; 0 holds all).";
    om.hidden = false;
  }
  sel.player.addEventListener("change", fillGames);
  sel.result.addEventListener("change", fillGames);
  sel.game.addEventListener("change", function () { show(Number(sel.game.value), 0); });
  $("gv-first").addEventListener("click", function () { step(-1e9); });
  $("gv-prev").addEventListener("click", function () { step(-1); });
  $("gv-next").addEventListener("click", function () { step(1); });
  $("gv-last").addEventListener("click", function () { step(1e9); });
  document.addEventListener("keydown", function (e) {
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var d = { ArrowRight: 1, ArrowLeft: -1, Home: -1e9, End: 1e9 }[e.key];
    if (d) { step(d); e.preventDefault(); }
  });
  var memory = recall();
  if (memory) {
    if (players[memory.player] || memory.player === "") { sel.player.value = memory.player; }
    for (var r = 0; r < sel.result.options.length; r++) {
      if (sel.result.options[r].value === memory.result) { sel.result.value = memory.result; }
    }
  }
  fillGames();
  restore(memory);

  // Links into the viewer: #game-I-ply-P opens the game of record index I
  // at ply P (the report's worst moves link so).
  function follow() {
    var m = /^#game-(\d+)-ply-(\d+)$/.exec(location.hash);
    if (!m) { return; }
    for (var i = 0; i < data.games.length; i++) {
      if (data.games[i].i === Number(m[1])) {
        sel.player.value = "";
        sel.result.value = "";
        fillGames();
        sel.game.value = String(i);
        show(i, Number(m[2]));
        $("viewer").scrollIntoView();
        return;
      }
    }
  }
  window.addEventListener("hashchange", follow);
  follow();

  // For tests and the curious: the current game and ply, and the picture
  // of any position.
  window.arenaViewer = {
    game: function () { return state.game; },
    ply: function () { return state.ply; },
    svg: svg,
    show: show
  };
})();
