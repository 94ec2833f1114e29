package arena

import (
	"github.com/boardgame-arena/arena/results"
)

// applyShard restricts t to shard s of its schedule (nil: the whole run):
// whole colour-swapped game pairs (fixtures 2k and 2k+1, which share an
// opening), so that a pair is never split between two machines and
// pentanomial statistics stay whole, dealt pairing by pairing so that every
// shard has about 1/N of every pairing's pairs (see results.Shard). The
// slice depends only on the schedule, never on concurrency or timing; the
// fixtures keep their indices and seeds, so the N shards together play
// exactly the unsharded run's games. Config.TotalGames still counts the
// whole run. Options.Check has refused a shard out of range, or one of a
// match.
func (t *Tournament) applyShard(s *results.Shard) {
	if s == nil || s.Count == 1 {
		return // the whole run: record no shard
	}
	sh := *s
	t.Config.Shard = &sh
	t.Schedule.Restrict(&sh)
}
