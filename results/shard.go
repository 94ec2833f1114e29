package results

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// MaxShards bounds Shard.Count: ten thousand batch jobs is more than any
// scheduler array a run of MaxGames games needs, and a mistyped count must
// not plan a run of empty shards.
const MaxShards = 10_000

// Shard is one static slice of a run's schedule (arena tournament --shard
// i/N), for batch schedulers that start N independent jobs. The shards are
// dealt whole colour-swapped game pairs (games 2k and 2k+1 of the
// schedule, which share an opening), numbered pairing by pairing: with P
// pairings of R game pairs each, the schedule's pair k is round k/P of the
// pairing in position k mod P, and its number j = (k mod P)·R + k/P goes to
// shard (j mod N)+1. So every shard has about R/N pairs of every pairing
// (dealing the schedule's k directly would give a shard nothing but one
// pairing whenever N divides P), and the shard sizes differ by at most one
// pair. Every game keeps its schedule index and seed, so the N shard files
// together hold exactly the games of the unsharded run.
type Shard struct {
	Index int `json:"index"` // 1 to Count
	Count int `json:"count"` // 2 to MaxShards (1/1 is the whole run: no shard)
}

// ParseShard reads "i/N" with 1 ≤ i ≤ N ≤ MaxShards. It returns nil for
// "1/1", the whole run.
func ParseShard(text string) (*Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return nil, option.New("Shard", strconv.Quote(text), "want i/N, the i-th of N shards, e.g. {Shard} 3/10 (1 ≤ i ≤ N ≤ %d)", MaxShards)
	}
	s := Shard{Index: i, Count: n}
	if err := s.Check(); err != nil {
		return nil, option.New("Shard", strconv.Quote(text), "%v", err)
	}
	if n == 1 {
		return nil, nil
	}
	return &s, nil
}

// Check reports a shard out of range.
func (s Shard) Check() error {
	if s.Count < 1 || s.Count > MaxShards {
		return fmt.Errorf("N is %d; a run has 1 to %d shards", s.Count, MaxShards)
	}
	if s.Index == 0 {
		// The likely cause: a 0-based job index passed as it is.
		return fmt.Errorf("i is 0; shards are numbered 1 to N (%d); a 0-based job index such as Kubernetes' JOB_COMPLETION_INDEX needs +1", s.Count)
	}
	if s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("i is %d; shards are numbered 1 to N (%d)", s.Index, s.Count)
	}
	return nil
}

// Holds reports whether the shard plays the game with schedule index
// index in a run of pairings pairings of rounds game pairs each (games per
// pairing / 2). A nil shard holds every game.
func (s *Shard) Holds(index, pairings, rounds int) bool {
	if s == nil {
		return true
	}
	k := index / 2
	j := (k%pairings)*rounds + k/pairings
	return j%s.Count == s.Index-1
}

// InShard reports whether a run with configuration c plays game index:
// every game without a shard, else those its shard holds.
func (c *Config) InShard(index int) bool {
	if c.Shard == nil {
		return true
	}
	return c.Shard.Holds(index, c.TotalGames/c.GamesPerPair, c.GamesPerPair/2)
}

// String returns "i/N" ("" for nil: the whole run).
func (s *Shard) String() string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// runKey identifies a run: its configuration without the shard.
func runKey(c Config) (string, error) {
	c.Shard = nil
	b, err := json.Marshal(c)
	return string(b), err
}

// shardGroups checks the shards among files and returns, for each file,
// the file whose position orders its games in Dataset.Results: the first
// shard of its run for a shard, itself otherwise. So the shards of a run
// are ordered by schedule index across files, exactly as the unsharded
// run's one file, and their ratings (bootstrap included) are the same.
//
// It refuses shards that overlap (the same shard twice, shards of one run
// with different counts, or a shard with its whole run), and shards of
// different runs unless each of those runs is complete (all N shards):
// the shards of one Slurm or Kubernetes array share every setting, so an
// incomplete mix is a job started with other settings (a different seed,
// say), and pooling it would silently rate games of two schedules.
func shardGroups(files []*File) ([]int, error) {
	hs := make([]shardFile, len(files))
	for i, f := range files {
		hs[i] = shardFile{f.Path, &f.Header.Config}
	}
	return checkShards(hs, true)
}

// shardFile is what checkShards needs of a record file.
type shardFile struct {
	Path   string
	Config *Config
}

// checkShards is shardGroups on headers alone (Tally checks each file's
// header as it starts reading it); final also checks that shards of
// different runs are complete, which only the whole list can tell.
func checkShards(files []shardFile, final bool) ([]int, error) {
	type run struct {
		first  int         // file index of the run's first file
		whole  int         // a file of the unsharded run, or -1
		shards map[int]int // shard index → file index
		count  int         // shard count, 0 if none seen yet
	}
	keys := make([]string, len(files))
	runs := map[string]*run{}
	var sharded []string // run keys with shards, in order of first appearance
	group := make([]int, len(files))
	for fi, f := range files {
		c := *f.Config
		k, err := runKey(c)
		if err != nil {
			return nil, err
		}
		keys[fi] = k
		r := runs[k]
		if r == nil {
			r = &run{first: fi, whole: -1, shards: map[int]int{}}
			runs[k] = r
		}
		group[fi] = fi
		s := c.Shard
		if s == nil {
			if r.count > 0 {
				return nil, fmt.Errorf("%s is a whole run and %s is shard %s of it: they overlap; rate the shards alone or the whole run alone", f.Path, files[r.shards[firstKey(r.shards)]].Path, files[r.shards[firstKey(r.shards)]].Config.Shard)
			}
			r.whole = fi
			continue
		}
		if err := s.Check(); err != nil {
			return nil, fmt.Errorf("%s: header: shard %s: %v", f.Path, s, err)
		}
		if r.whole >= 0 {
			return nil, fmt.Errorf("%s is shard %s of the run in %s, which is the whole run: they overlap; rate the shards alone or the whole run alone", f.Path, s, files[r.whole].Path)
		}
		if r.count == 0 {
			r.count = s.Count
			r.first = fi
			sharded = append(sharded, k)
		} else if s.Count != r.count {
			o := files[r.shards[firstKey(r.shards)]]
			return nil, fmt.Errorf("%s is shard %s and %s shard %s of the same run: the shards of one run must all have the same N (they would overlap)", f.Path, s, o.Path, o.Config.Shard)
		}
		if prev, dup := r.shards[s.Index]; dup {
			return nil, fmt.Errorf("%s and %s are both shard %s of the same run (seed %d): give each file once, and each job its own shard", files[prev].Path, f.Path, s, c.Seed)
		}
		r.shards[s.Index] = fi
		group[fi] = r.first
	}
	if final && len(sharded) > 1 {
		for _, k := range sharded {
			r := runs[k]
			if len(r.shards) == r.count {
				continue
			}
			a, b := files[r.first], files[runs[sharded[0]].first]
			if k == sharded[0] {
				b = files[runs[sharded[1]].first]
			}
			return nil, fmt.Errorf("%s (shard %s) and %s (shard %s) are shards of different runs, and the run of %s has %d of its %d shards here:\n  %s\nthe shards of one run share every setting but their shard number; to pool different runs, give every shard of each",
				a.Path, a.Config.Shard, b.Path, b.Config.Shard, a.Path, len(r.shards), r.count,
				strings.NewReplacer("(file)", "("+a.Path+")", "(now)", "("+b.Path+")").Replace(strings.Join(a.Config.Diff(*b.Config), "\n  ")))
		}
	}
	return group, nil
}

// firstKey returns the smallest key of a non-empty map.
func firstKey(m map[int]int) int {
	first := true
	var k0 int
	for k := range m {
		if first || k < k0 {
			k0, first = k, false
		}
	}
	return k0
}

// MergeNotes says what a reader of the pooled ratings should know about
// the files: one line per run of which shards are missing (rate and
// report then rate the games that are there), and one per name that
// stands for different specs in different files (SpecClashes).
func (t *Tally) MergeNotes() []string {
	hs := make([]shardFile, 0, len(t.Files))
	for _, f := range t.Files {
		if f.Header.Record != "" {
			hs = append(hs, shardFile{f.Path, &f.Header.Config})
		}
	}
	return append(shardNotes(hs), clashNotes(specClashes(hs))...)
}

// MergeNotes is Tally.MergeNotes for merged files.
func (d *Dataset) MergeNotes() []string {
	hs := d.shardFiles()
	return append(shardNotes(hs), clashNotes(specClashes(hs))...)
}

func (d *Dataset) shardFiles() []shardFile {
	hs := make([]shardFile, len(d.Files))
	for i, f := range d.Files {
		hs[i] = shardFile{f.Path, &f.Header.Config}
	}
	return hs
}

func shardNotes(files []shardFile) []string {
	type run struct {
		first string
		count int
		have  map[int]bool
	}
	var order []string
	runs := map[string]*run{}
	for _, f := range files {
		s := f.Config.Shard
		if s == nil {
			continue
		}
		k, err := runKey(*f.Config)
		if err != nil {
			continue
		}
		r := runs[k]
		if r == nil {
			r = &run{first: f.Path, count: s.Count, have: map[int]bool{}}
			runs[k] = r
			order = append(order, k)
		}
		r.have[s.Index] = true
	}
	var out []string
	for _, k := range order {
		r := runs[k]
		if len(r.have) >= r.count {
			continue
		}
		var missing []string
		for i := 1; i <= r.count && len(missing) < 10; i++ {
			if !r.have[i] {
				missing = append(missing, strconv.Itoa(i))
			}
		}
		list := strings.Join(missing, ", ")
		if n := r.count - len(r.have); n > len(missing) {
			list += fmt.Sprintf(" and %d more", n-len(missing))
		}
		out = append(out, fmt.Sprintf("the run of %s has %d of its %d shards here (missing: %s); these are the ratings of its games so far", r.first, len(r.have), r.count, list))
	}
	return out
}
