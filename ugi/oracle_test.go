package ugi

import (
	"fmt"
	"strconv"
	"strings"
)

// The two parsers of info lines that the grammar replaced, as they were:
// the ugi agent's (agents.ParseUGIInfo) and arena check-engine's
// (checkInfo). FuzzGrammar holds Info.Update and CheckInfo to them.

// oldParseUGIInfo is agents.ParseUGIInfo, into an Info.
func oldParseUGIInfo(f []string, st *Info) {
	var info []string
	for i := 0; i < len(f); i++ {
		next := func() string {
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch f[i] {
		case "depth":
			if n, err := strconv.Atoi(next()); err == nil {
				st.Depth = n
			}
		case "nodes":
			if n, err := strconv.ParseInt(next(), 10, 64); err == nil {
				st.Nodes = n
			}
		case "score":
			switch next() {
			case "cp":
				if n, err := strconv.Atoi(next()); err == nil {
					st.Score = n
				}
			case "mate":
				if n, err := strconv.Atoi(next()); err == nil {
					st.Score = MateScore(n)
				}
			}
		case "nps":
			info = append(info, "nps "+next())
		case "pv":
			info = append(info, "pv "+strings.Join(f[i+1:], " "))
			i = len(f)
		case "string":
			info = append(info, strings.Join(f[i:], " "))
			i = len(f)
		}
	}
	if len(info) > 0 {
		st.Text = strings.Join(info, " ")
	}
}

// oldCheckInfo is check-engine's checkInfo.
func oldCheckInfo(f []string) string {
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits":
			if i+1 >= len(f) {
				return f[i] + " without a number"
			}
			i++
			if _, err := strconv.ParseInt(f[i], 10, 64); err != nil {
				return fmt.Sprintf("%s %q is not an integer", f[i-1], f[i])
			}
		case "score":
			if i+2 >= len(f) || (f[i+1] != "cp" && f[i+1] != "mate") {
				return "score needs cp N or mate N"
			}
			if _, err := strconv.Atoi(f[i+2]); err != nil {
				return fmt.Sprintf("score %s %q is not an integer", f[i+1], f[i+2])
			}
			i += 2
			if i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				i++
			}
		case "currmove":
			i++
		case "pv", "string":
			return ""
		default:
			if i+1 < len(f) {
				if _, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
					i++
					continue
				}
			}
			return fmt.Sprintf("unknown field %q (not followed by an integer)", f[i])
		}
	}
	return ""
}
