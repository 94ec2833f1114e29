package tryangle

import (
	"math/bits"
	"strconv"
)

// Input returns the text player p reads this turn (§8): on the first turn
// (first = true) the initial block (house count, then "id x y" per house),
// then the turn block: scores (mine first), "id myUnits opponentUnits" per
// house, the paths, the triangles with owner (-1 neutral, 0 me, 1 opponent)
// and both eligibility flags (mine first), and the legal new paths. Every
// line ends with '\n'.
func (s *State) Input(p int, first bool) string {
	return string(s.AppendInput(nil, p, first))
}

// AppendInput appends Input(p, first) to b.
func (s *State) AppendInput(b []byte, p int, first bool) []byte {
	o := 1 - p
	line := func(vs ...int) {
		for i, v := range vs {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, '\n')
	}
	if first {
		line(s.n)
		for h := 0; h < s.n; h++ {
			line(h, int(s.m.X[h]), int(s.m.Y[h]))
		}
	}
	line(int(s.score[p]), int(s.score[o]))
	for h := 0; h < s.n; h++ {
		line(h, int(s.units[p][h]), int(s.units[o][h]))
	}
	paths := s.paths()
	line(len(paths))
	for _, e := range paths {
		line(e[0], e[1])
	}
	line(s.ntri)
	for i := 0; i < s.ntri; i++ {
		t := &s.tris[i]
		owner := -1
		switch int(t.owner) {
		case p:
			owner = 0
		case o:
			owner = 1
		}
		line(int(t.c[0]), int(t.c[1]), int(t.c[2]), owner, int(b2u(t.canCap[p])), int(b2u(t.canCap[o])))
	}
	links := s.Linkable()
	line(len(links))
	for _, e := range links {
		line(e[0], e[1])
	}
	return b
}

// paths lists the paths a < b sorted (self-loops are never shown, §8.2).
func (s *State) paths() [][2]int {
	var out [][2]int
	for a := 0; a < s.n; a++ {
		for bs := s.adj[a] &^ (1<<(a+1) - 1); bs != 0; bs &= bs - 1 {
			out = append(out, [2]int{a, bits.TrailingZeros64(bs)})
		}
	}
	return out
}

// Paths returns the current paths, a < b, sorted (self-loops left out).
func (s *State) Paths() [][2]int { return s.paths() }

// Linkable returns every pair a < b, not yet joined, that a new path could
// join (§8.2: pure geometry, whoever owns what).
func (s *State) Linkable() [][2]int {
	var out [][2]int
	for a := 0; a < s.n; a++ {
		for bs := s.m.near[a] &^ (1<<(a+1) - 1) &^ s.adj[a]; bs != 0; bs &= bs - 1 {
			b := bits.TrailingZeros64(bs)
			if s.m.canConnect(a, b, &s.adj) {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// View is the position as JSON (arena replay): everything a bot's input
// holds, from the players' fixed seats (player 0 left, player 1 right).
type View struct {
	Turn      int            `json:"turn"` // the next decision turn, 1…200
	Over      bool           `json:"over"`
	Result    string         `json:"result,omitempty"` // "1-0", "0-1", "1/2-1/2" once over
	Scores    [2]int         `json:"scores"`
	Lost      [2]bool        `json:"lost"` // lost early (score −1)
	Houses    []HouseView    `json:"houses"`
	Paths     [][2]int       `json:"paths"`
	Triangles []TriangleView `json:"triangles"`
	Owned     [2]int         `json:"owned_triangles"`
	UnitCount [2]int         `json:"unit_counts"`
	Linkable  [][2]int       `json:"linkable"`
}

// HouseView is one house in a View.
type HouseView struct {
	ID    int    `json:"id"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
	Units [2]int `json:"units"`
	Owner int    `json:"owner"` // §5.1 ownership: -1 nobody
}

// TriangleView is one triangle in a View.
type TriangleView struct {
	Corners    [3]int  `json:"corners"`
	Owner      int     `json:"owner"` // -1 neutral
	CanCapture [2]bool `json:"can_capture"`
}

// View returns the position for JSON export.
func (s *State) View() View {
	units, owned, _ := s.counts()
	v := View{
		Turn: s.Turn(), Over: s.over,
		Scores:    [2]int{int(s.score[0]), int(s.score[1])},
		Lost:      s.lost,
		Paths:     s.paths(),
		Owned:     owned,
		UnitCount: units,
		Linkable:  s.Linkable(),
	}
	if v.Paths == nil {
		v.Paths = [][2]int{}
	}
	if v.Linkable == nil {
		v.Linkable = [][2]int{}
	}
	if s.over {
		v.Result = s.Outcome().Result()
	}
	own0, own1 := s.ownership()
	for h := 0; h < s.n; h++ {
		owner := -1
		if own0&(1<<h) != 0 {
			owner = 0
		} else if own1&(1<<h) != 0 {
			owner = 1
		}
		v.Houses = append(v.Houses, HouseView{ID: h, X: int(s.m.X[h]), Y: int(s.m.Y[h]),
			Units: [2]int{int(s.units[0][h]), int(s.units[1][h])}, Owner: owner})
	}
	v.Triangles = []TriangleView{}
	for _, t := range s.Triangles() {
		v.Triangles = append(v.Triangles, TriangleView{Corners: t.Corners, Owner: t.Owner, CanCapture: t.CanCapture})
	}
	return v
}
