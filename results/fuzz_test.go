package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzRead: any bytes given to the record reader give a file or an error,
// never a panic; a file that reads is written back line by line and reads
// again to the same header and games.
func FuzzRead(f *testing.F) {
	g0, g1 := testGame(0, "1-0", 0), testGame(1, "1/2-1/2", -1)
	for _, s := range []string{
		"", "\n", "{}", testHeader, testHeader + "\n" + g0 + g1,
		testHeader + "\n" + g0 + `{"record":"resume","time":"x","concurrency":1,"done":1}` + "\n",
		testHeader + "\n" + g0 + strings.TrimSuffix(g1, "\n")[:40],
		testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":1e999`, 1),
		testHeader + "\n" + strings.Replace(g0, `"index":0`, `"index":-1`, 1),
		strings.Replace(testHeader, `"total_games":4`, `"total_games":-4`, 1),
		testHeader + "\n" + clockedLine(),
		testHeader + "\n" + strings.Replace(clockedLine(), `990.5`, `-990.5`, 1),
		shardHeader("2/2", 1) + "\n" + testGame(2, "1-0", 0) + testGame(1, "1-0", 0),
		strings.Replace(shardHeader("1/2", 1), `"games_per_pair":4`, `"games_per_pair":0`, 1) + "\n" + g0,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		if file.GoodSize < 0 || file.GoodSize > int64(len(data)) {
			t.Fatalf("GoodSize %d outside the %d bytes read", file.GoodSize, len(data))
		}
		var out bytes.Buffer
		write := func(v any) {
			line, err := MarshalLine(v)
			if err != nil {
				t.Fatalf("a record that was read does not write back: %v", err)
			}
			out.Write(line)
		}
		write(file.Header)
		for _, g := range file.Games {
			write(g)
		}
		for _, r := range file.Resumes {
			write(r)
		}
		again, err := Read(bytes.NewReader(out.Bytes()), "again.jsonl")
		if err != nil {
			t.Fatalf("written back, the file does not read: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(again.Header, file.Header) {
			t.Fatalf("header %+v reads back as %+v", file.Header, again.Header)
		}
		if len(again.Games) != len(file.Games) || len(again.Resumes) != len(file.Resumes) {
			t.Fatalf("%d games, %d resumes read back as %d, %d", len(file.Games), len(file.Resumes), len(again.Games), len(again.Resumes))
		}
		for i := range file.Games {
			if !reflect.DeepEqual(normal(again.Games[i]), normal(file.Games[i])) {
				t.Fatalf("game %d: %+v reads back as %+v", i, file.Games[i], again.Games[i])
			}
		}
	})
}

// clockedLine is a record line with clock times and move statistics.
func clockedLine() string {
	g := clockedGame()
	return string(AppendGame(nil, &g))
}

// normal maps nil and empty lists together: JSON null and [] differ
// only in spelling.
func normal(g GameRecord) GameRecord {
	if len(g.Opening) == 0 {
		g.Opening = nil
	}
	if len(g.Moves) == 0 {
		g.Moves = nil
	}
	if len(g.Clocks) == 0 {
		g.Clocks = nil
	}
	if len(g.MoveStats) == 0 {
		g.MoveStats = nil
	}
	return g
}
