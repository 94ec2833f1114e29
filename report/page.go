package report

import (
	"html/template"
	"strings"
)

// pageTemplate is the whole report: no external resource of any kind, so
// the file opens from disk anywhere. Every section has an id (the tests
// and the table of contents use them); machine-readable numbers are in
// data-* attributes next to the formatted ones.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"mul100": func(v float64) float64 { return 100 * v }, "join": func(s []string) string { return strings.Join(s, ", ") }}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{if gt .Refresh 0}}<meta http-equiv="refresh" content="{{.Refresh}}">
{{end}}<title>{{.Title}}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:0 1em 3em;color:#222;line-height:1.4}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.8em}
nav a{margin-right:1em}
table{border-collapse:collapse;margin:.6em 0}
th,td{padding:.2em .6em;border-bottom:1px solid #e4e4e4;text-align:right}
th{background:#f4f4f4;cursor:default}
td.name,th.name{text-align:left}
table.sortable th{cursor:pointer}
td.self{background:#eee}
svg.plot{width:100%;max-width:760px;height:auto;display:block;margin:.6em 0}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:90%}
code.cmd{display:block;background:#f6f6f6;padding:.6em;white-space:pre-wrap;word-break:break-all}
.status{color:#a33}.note{color:#555;font-size:92%}tr.flagged td{background:#fdd}
</style>
</head>
<body>
<h1 id="title">{{.Title}}</h1>
{{if .Status}}<p class="status" id="status">{{.Status}}</p>
{{end}}<p>Game <b>{{.Game}}</b>, <span id="games" data-games="{{.Games}}">{{.Games}}</span> games, mean length {{printf "%.1f" .MeanPlies}} plies; ratings: {{.Rep.DrawModel}} draw model, {{.Rep.Bootstrap}} bootstrap resamples{{if .Rep.Anchor}}, {{.Rep.Anchor}} anchored at {{.Rep.AnchorElo}}{{end}}{{if .Rep.MeanOf}}, mean 0 over the players whose ratings the data bound ({{join .Rep.MeanOf}}){{end}}.</p>
<nav>
<a href="#standings">Standings</a><a href="#matrix">Score matrix</a><a href="#colours">Colours</a><a href="#terminations">Terminations</a><a href="#lengths">Game length</a><a href="#search">Time and search</a>{{if .Matches}}<a href="#match">Match</a>{{end}}{{if .Races}}<a href="#race">Race</a>{{end}}<a href="#config">Configuration</a>{{if .Viewer}}<a href="#viewer">Games</a>{{end}}
</nav>

<section id="standings">
<h2>Standings</h2>
<table class="sortable" id="standings-table">
<thead><tr><th>#</th><th class="name">Player</th><th>Elo</th><th>−</th><th>+</th><th>Games</th><th>Score</th><th>W-D-L</th><th>Draws</th><th>Forfeits</th><th>Lost on time</th></tr></thead>
<tbody>
{{range .Standings}}<tr data-player="{{.Name}}" data-elo="{{.EloRaw}}" data-elo-low="{{.LowRaw}}" data-elo-high="{{.HighRaw}}" data-games="{{.Games}}" data-wins="{{.Wins}}" data-draws="{{.Draws}}" data-losses="{{.Losses}}"><td>{{.Rank}}</td><td class="name">{{.Name}}</td><td>{{.Elo}}</td><td>{{.Minus}}</td><td>{{.Plus}}</td><td>{{.Games}}</td><td>{{.Score}}</td><td>{{.Wins}}-{{.Draws}}-{{.Losses}}</td><td>{{.DrawRate}}</td><td>{{.Forfeits}}</td><td>{{.TimeLosses}}</td></tr>
{{end}}</tbody>
</table>
<p class="note">− and + are the distances from the Elo down and up to the ends of its {{printf "%g" (mul100 .Rep.Level)}} % interval ({{.Rep.Bootstrap}} bootstrap resamples), as in arena rate's tables (the ends themselves: the rows' data-elo-low and data-elo-high, JSON's elo_low and elo_high); ∞: the data cannot bound the rating on that side.</p>
{{range .Notes}}<p class="note">Note: {{.}}</p>
{{end}}{{.RatingPlot}}
</section>

<section id="matrix">
<h2>Score matrix and likelihood of superiority</h2>
<table id="cross-table">
<thead><tr><th class="name">Player</th>{{range .Cross.Names}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Cross.Rows}}<tr data-player="{{.Name}}"><td class="name">{{.Name}}</td>{{range .Cells}}{{if .Self}}<td class="self"></td>{{else if .Played}}<td title="W-D-L {{.WDL}}{{if .LOS}}, LOS {{.LOS}}{{end}}">{{.Score}}</td>{{else}}<td>·</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table>
<p class="note">The row player's score against the column player (hover for W-D-L and LOS). In the heat maps red is 0 %, white 50 %, green 100 %, and a grey cell a pair that never met (in the LOS map: players in groups that never met, whose ratings cannot be compared).</p>
{{.ScorePlot}}{{.LOSPlot}}
</section>

<section id="colours">
<h2>Colours and first move</h2>
<p id="first-player">The first mover scored {{printf "%.1f" (mul100 .FirstPlayer.Score)}} % ({{.FirstPlayer.Wins}}-{{.FirstPlayer.Draws}}-{{.FirstPlayer.Losses}}).{{if .FirstMoveElo}} Fitted first-move advantage: {{.FirstMoveElo}} Elo.{{end}}</p>
<table id="colour-table">
<thead><tr><th class="name">Player</th><th>As first W-D-L</th><th>Score</th><th>As second W-D-L</th><th>Score</th></tr></thead>
<tbody>
{{range .Colours}}<tr data-player="{{.Name}}"><td class="name">{{.Name}}</td><td>{{.AsFirst}}</td><td>{{.First}}</td><td>{{.AsSecond}}</td><td>{{.Second}}</td></tr>
{{end}}</tbody>
</table>
{{.ColourPlot}}
</section>

<section id="terminations">
<h2>How games ended</h2>
<table id="termination-table">
<thead><tr><th class="name">Termination</th><th>Games</th><th class="name">Forfeited by</th></tr></thead>
<tbody>
{{range .Terminations}}<tr data-reason="{{.Reason}}" data-games="{{.Games}}"><td class="name">{{.Reason}}</td><td>{{.Games}}</td><td class="name">{{.By}}</td></tr>
{{end}}</tbody>
</table>
{{if .Forfeits}}<details><summary>Forfeited games</summary>
<table id="forfeit-table">
<thead><tr><th>Game</th><th class="name">Reason</th><th class="name">Player</th><th class="name">Detail</th></tr></thead>
<tbody>
{{range .Forfeits}}<tr><td>{{.Index}}</td><td class="name">{{.Reason}}</td><td class="name">{{.Player}}</td><td class="name">{{.Detail}}</td></tr>
{{end}}</tbody>
</table>
{{if .MoreForfeits}}<p class="note">and {{.MoreForfeits}} more.</p>{{end}}
</details>
{{end}}{{.TermPlot}}
</section>

<section id="lengths">
<h2>Game length</h2>
{{.LengthPlot}}
</section>

<section id="search">
<h2>Time and search</h2>
<table id="search-table">
<thead><tr><th class="name">Player</th><th>Moves</th><th>ms per move</th><th>Slowest move (ms)</th><th>Nodes</th><th>Nodes per move</th><th>Mean depth</th></tr></thead>
<tbody>
{{range .Search}}<tr data-player="{{.Name}}"><td class="name">{{.Name}}</td><td>{{.Moves}}</td><td>{{.MSPerMove}}</td><td>{{.MaxMS}}</td><td>{{.Nodes}}</td><td>{{.NodesMove}}</td><td>{{.Depth}}</td></tr>
{{end}}</tbody>
</table>
<p class="note">Moves exclude the opening plies; nodes are counted only by agents that report them.</p>
{{.TimePlot}}{{.NodesPlot}}{{.MoveTimePlot}}{{.DepthPlot}}{{.ClockPlot}}
</section>

{{if .Matches}}<section id="match">
{{range .Matches}}<div class="match">
<h2>Match: {{.First}} vs {{.Second}}</h2>
<p>From {{.First}}'s view, {{.Pairs}} game pairs ({{.Games}} games) counted in round order{{if .Uncounted}}; {{.Uncounted}} more recorded but not counted{{end}}.</p>
<table class="penta">
<thead><tr><th>LL</th><th>LD</th><th>DD+WL</th><th>WD</th><th>WW</th></tr></thead>
<tbody><tr data-penta="{{index .Penta 0}},{{index .Penta 1}},{{index .Penta 2}},{{index .Penta 3}},{{index .Penta 4}}">{{range .Penta}}<td>{{.}}</td>{{end}}</tr></tbody>
</table>
<table class="estimate">
<tbody>
<tr><th class="name">W-D-L</th><td>{{.WDL}}</td></tr>
<tr><th class="name">Score</th><td>{{.Score}}</td></tr>
<tr><th class="name">Elo (95 %)</th><td data-elo="{{.Elo}}">{{.Elo}} ({{.EloLow}} to {{.EloHi}})</td></tr>
<tr><th class="name">nElo (95 %)</th><td data-nelo="{{.NElo}}">{{.NElo}} ({{.NLow}} to {{.NHigh}})</td></tr>
<tr><th class="name">LOS</th><td>{{.LOS}}</td></tr>
{{if .SPRT}}<tr><th class="name">SPRT</th><td>{{.SPRT}}</td></tr>
<tr><th class="name">LLR</th><td data-llr="{{.LLR}}">{{.LLR}} (bounds {{.Lower}}, {{.Upper}}): {{.Decision}}</td></tr>{{end}}
</tbody>
</table>
{{.LLRPlot}}
</div>
{{end}}</section>
{{end}}
{{if .Races}}<section id="race">
{{range .Races}}<div class="race" data-decision="{{.Decision}}" data-winner="{{.Winner}}">
<h2>Race: {{.K}} candidates against {{.Base}}</h2>
<p>{{if eq .Decision "winner"}}Winner: {{.Winner}}{{else if eq .Decision "none better"}}No candidate proven better than the base{{else}}Undecided{{end}}, after stage {{.Stage}}: {{.Pairs}} game pairs ({{.Games}} games) counted, each candidate's in round order, stage by stage as the race counted them{{if .Uncounted}}; {{.Uncounted}} more recorded but not counted{{end}}.</p>
<p>SPRT {{.SPRT}}. Family-wise errors: the race names a winner no better than elo0 over the base with probability at most α = {{.Alpha}}, and misses the best candidate, when it is at least elo1 over the base and elo1 − elo0 ahead of every other, with probability at most β = {{.Beta}}. Each candidate's test runs at α/{{.K}} = {{.EachAlpha}} and β/2 = {{.EachBeta}}: LLR bounds {{.Lower}} and {{.Upper}}.</p>
<table class="race-table">
<thead><tr><th class="name">Candidate</th><th class="name">State</th><th>Stage</th><th>Pairs</th><th>LL</th><th>LD</th><th>DD+WL</th><th>WD</th><th>WW</th><th>LLR</th><th>Elo (95 %)</th></tr></thead>
<tbody>
{{range .Candidates}}<tr data-candidate="{{.Name}}" data-state="{{.State}}" data-stage="{{.LeftAt}}" data-llr="{{.LLR}}"><td class="name">{{.Name}}</td><td class="name">{{.State}}</td><td>{{if .LeftAt}}{{.LeftAt}}{{end}}</td><td>{{.Pairs}}</td>{{range .Penta}}<td>{{.}}</td>{{end}}<td>{{.LLR}}</td><td>{{.Elo}}{{if .EloLow}} ({{.EloLow}} to {{.EloHi}}){{end}}</td></tr>
{{end}}</tbody>
</table>
<p class="note">Stage: the stage at which the candidate qualified (its test accepted elo1), went out (its test accepted elo0) or was eliminated (clearly worse than another candidate in the race, Paulson's rule); a qualified candidate plays on to be compared. The pentanomial counts and Elo are from the candidate's view.</p>
{{.LLRPlot}}
</div>
{{end}}</section>
{{end}}{{if .Workers}}<section id="workers">
<h2>Workers</h2>
<table id="workers-table" class="sortable">
<thead><tr><th class="name">Worker</th><th>Games</th><th>W-D-L (first mover)</th><th>Forfeits</th><th>Lost on time</th><th>Speed (nodes/s)</th><th>Time scale</th><th>Residual</th><th class="name">Flag</th></tr></thead>
<tbody>
{{range .Workers}}<tr data-worker="{{.Name}}"{{if .Flag}} class="flagged"{{end}}><td class="name">{{.Name}}</td><td>{{.Games}}</td><td>{{.Wins}}-{{.Draws}}-{{.Losses}}</td><td>{{.Forfeits}}</td><td>{{.TimeLoss}}</td><td>{{.NPS}}</td><td>{{.Scale}}</td><td data-residual="{{.Residual}}">{{.Residual}}</td><td class="name">{{.Flag}}</td></tr>
{{end}}</tbody>
</table>
<p class="note">The worker of each game as the record names it ("this machine": the process that wrote the record). The residual is fishtest's: how far a worker's results are from the others', as a standard normal deviate; above {{.WorkerZ}} (the 99 % level for this many workers) the worker is flagged: look at that machine. Speeds and scales are each worker's own report of its measured speed and the time scale it played at.</p>
</section>
{{end}}<section id="config">
<h2>Configuration</h2>
{{range .Configs}}<h3>{{.File}}</h3>
{{if .Command}}<p>Reproduce the games (same seed, same openings{{with $.CommandNote}}; {{.}}{{end}}):</p>
<code class="cmd">{{.Command}}</code>
{{end}}{{if .Resumes}}<p class="note">The run was resumed {{.Resumes}} time(s).</p>{{end}}
<details><summary>Record header</summary><pre>{{.Header}}</pre></details>
{{end}}</section>
{{.Viewer}}

<script>
// Click a column heading of a sortable table to sort by it.
document.querySelectorAll("table.sortable").forEach(function (t) {
  t.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var dir = th.dataset.dir === "asc" ? -1 : 1;
      th.dataset.dir = dir === 1 ? "asc" : "desc";
      rows.sort(function (a, b) {
        var x = a.cells[col].textContent, y = b.cells[col].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        if (!isNaN(nx) && !isNaN(ny)) { return dir * (nx - ny); }
        return dir * x.localeCompare(y);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
</script>
</body>
</html>
`))
