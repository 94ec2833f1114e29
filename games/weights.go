package games

// DefaultWeights returns the defaults of ws, in order: the vector a
// Weighted position evaluates with when UseWeights was given nil.
func DefaultWeights(ws []Weight) []int {
	w := make([]int, len(ws))
	for i, x := range ws {
		w[i] = x.Default
	}
	return w
}
