package results

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendGame appends g as one JSON line (with its newline) to buf. It
// writes the same fields as encoding/json would for GameRecord, in the same
// order, without reflection: a record is encoded on a tournament's hot
// path once per game, where encoding/json took longer than a whole game
// between fast agents.
func AppendGame(buf []byte, g *GameRecord) []byte {
	buf = append(buf, `{"record":`...)
	buf = appendString(buf, g.Record)
	buf = append(buf, `,"index":`...)
	buf = strconv.AppendInt(buf, int64(g.Index), 10)
	buf = append(buf, `,"pair":`...)
	buf = strconv.AppendInt(buf, int64(g.Pair), 10)
	buf = append(buf, `,"round":`...)
	buf = strconv.AppendInt(buf, int64(g.Round), 10)
	buf = append(buf, `,"game":`...)
	buf = appendString(buf, g.Game)
	if g.Variant != "" {
		buf = append(buf, `,"variant":`...)
		buf = appendString(buf, g.Variant)
	}
	buf = append(buf, `,"seed":`...)
	buf = strconv.AppendUint(buf, g.Seed, 10)
	buf = append(buf, `,"players":[`...)
	for i := range g.Players {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendPlayer(buf, &g.Players[i])
	}
	buf = append(buf, `],"opening":`...)
	buf = appendStrings(buf, g.Opening)
	buf = append(buf, `,"moves":`...)
	buf = appendStrings(buf, g.Moves)
	buf = append(buf, `,"result":`...)
	buf = appendString(buf, g.Result)
	buf = append(buf, `,"winner":`...)
	buf = strconv.AppendInt(buf, int64(g.Winner), 10)
	buf = append(buf, `,"score":`...)
	buf = strconv.AppendInt(buf, int64(g.Score), 10)
	buf = append(buf, `,"termination":`...)
	buf = appendString(buf, g.Termination)
	buf = append(buf, `,"forfeit":`...)
	buf = strconv.AppendInt(buf, int64(g.Forfeit), 10)
	if g.Detail != "" {
		buf = append(buf, `,"detail":`...)
		buf = appendString(buf, g.Detail)
	}
	if g.Trimmed != 0 {
		buf = append(buf, `,"trimmed":`...)
		buf = strconv.AppendInt(buf, int64(g.Trimmed), 10)
	}
	if g.Adjudicated != "" {
		buf = append(buf, `,"adjudicated":`...)
		buf = appendString(buf, g.Adjudicated)
	}
	buf = append(buf, `,"plies":`...)
	buf = strconv.AppendInt(buf, int64(g.Plies), 10)
	buf = append(buf, `,"duration_ms":`...)
	buf = appendFloat(buf, g.DurationMS)
	if len(g.Clocks) > 0 {
		buf = append(buf, `,"clocks_ms":[`...)
		for i, c := range g.Clocks {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '[')
			buf = appendFloat(buf, c[0])
			buf = append(buf, ',')
			buf = appendFloat(buf, c[1])
			buf = append(buf, ']')
		}
		buf = append(buf, ']')
	}
	if len(g.MoveStats) > 0 {
		buf = append(buf, `,"move_stats":[`...)
		for i := range g.MoveStats {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendMoveStat(buf, &g.MoveStats[i])
		}
		buf = append(buf, ']')
	}
	if g.Worker != "" {
		buf = append(buf, `,"worker":`...)
		buf = appendString(buf, g.Worker)
	}
	if g.TCScale != 0 {
		buf = append(buf, `,"tc_scale":`...)
		buf = appendFloat(buf, g.TCScale)
	}
	if g.WorkerNPS != 0 {
		buf = append(buf, `,"worker_nps":`...)
		buf = appendFloat(buf, g.WorkerNPS)
	}
	return append(buf, "}\n"...)
}

func appendMoveStat(buf []byte, m *MoveStat) []byte {
	buf = append(buf, `{"player":`...)
	buf = strconv.AppendInt(buf, int64(m.Player), 10)
	buf = append(buf, `,"ms":`...)
	buf = appendFloat(buf, m.MS)
	if m.Depth != 0 {
		buf = append(buf, `,"depth":`...)
		buf = strconv.AppendInt(buf, int64(m.Depth), 10)
	}
	if m.Score != 0 {
		buf = append(buf, `,"score":`...)
		buf = strconv.AppendInt(buf, int64(m.Score), 10)
	}
	if m.Nodes != 0 {
		buf = append(buf, `,"nodes":`...)
		buf = strconv.AppendInt(buf, m.Nodes, 10)
	}
	if m.Info != "" {
		buf = append(buf, `,"info":`...)
		buf = appendString(buf, m.Info)
	}
	return append(buf, '}')
}

func appendPlayer(buf []byte, p *Player) []byte {
	buf = append(buf, `{"agent":`...)
	buf = strconv.AppendInt(buf, int64(p.Agent), 10)
	buf = append(buf, `,"name":`...)
	buf = appendString(buf, p.Name)
	buf = append(buf, `,"spec":`...)
	buf = appendString(buf, p.Spec)
	buf = append(buf, `,"seed":`...)
	buf = strconv.AppendUint(buf, p.Seed, 10)
	buf = append(buf, `,"moves":`...)
	buf = strconv.AppendInt(buf, int64(p.Moves), 10)
	buf = append(buf, `,"time_ms":`...)
	buf = appendFloat(buf, p.TimeMS)
	buf = append(buf, `,"max_move_ms":`...)
	buf = appendFloat(buf, p.MaxMoveMS)
	buf = append(buf, `,"nodes":`...)
	buf = strconv.AppendInt(buf, p.Nodes, 10)
	if p.TC != "" {
		buf = append(buf, `,"tc":`...)
		buf = appendString(buf, p.TC)
	}
	return append(buf, '}')
}

// appendStrings writes a list of strings; nil is written as [] (a record's
// lists are never absent).
func appendStrings(buf []byte, ss []string) []byte {
	buf = append(buf, '[')
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, s)
	}
	return append(buf, ']')
}

// appendString writes s as a JSON string. Plain printable ASCII (move
// notation, names, specs) is copied; anything else goes through
// encoding/json, so escaping is exactly its own.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // never fails for a string
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// appendFloat writes a finite float as encoding/json does: the shortest
// form that reads back exactly, in plain decimals between 1e-6 and 1e21
// and in exponent form ("1e-7") outside. Times are never NaN or infinite.
func appendFloat(buf []byte, v float64) []byte {
	format := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, v, format, -1, 64)
	if n := len(buf); format == 'e' && n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
		buf[n-2] = buf[n-1] // e-07 → e-7
		buf = buf[:n-1]
	}
	return buf
}
