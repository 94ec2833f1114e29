// Package tune tunes agent parameters by playing games on the arena:
// SPSA on colour-swapped game pairs (SPSA), an Elo-versus-value sweep of one
// parameter (sweep) and a Texel fit of evaluation weights to game results
// (texel). Every method ends in a verification match (Verify): an SPRT
// match of the tuned agent against the one it started from.
//
// A tuned result is an agent spec: a parameter is a key of the agent's spec
// ("c", "fpu", "asp", or an evaluation weight "eval.NAME"), so the tuned
// agent is the base spec with those keys rewritten.
//
// Each method is also a whole run in one call, as the arena command makes
// it: OpenSPSA (an SPSA run with its run file, new or resumed), a Sweep's
// tournament with Rate and SweepReport, and RunTexel (training games,
// fit, verification). A refused value is an *option.Error naming the
// option a Go caller set (Iterations, SelfPlay, Values …), so that a
// command line shows it as its own flag. Stopping is the caller's: a
// Stop channel in the run options ends a run after its running games
// (or iteration), a cancelled context at once.
//
// Games that are recorded — self-play games, a verification match, a
// sweep — are played in an arena.Session, which creates the record or
// continues it (read and checked once, written to only once the run
// starts). An SPSA run's file is its own: a line per iteration, whose
// games are not recorded (SPSASession).
//
// # SPSA
//
// The update rule is fishtest's and OpenBench's. With N iterations and
// k = 1..N, each parameter i has
//
//	c_k = c/k^γ,  a_k = a/(A+k)^α,  c = c_end·N^γ,  a = r_end·c_end²·(A+N)^α
//
// (defaults α = 0.602, γ = 0.101, A = N/10). Each iteration draws a
// Rademacher flip δ_i = ±1 per parameter; θ+ = θ+c_k·δ plays θ− = θ−c_k·δ
// in a batch of colour-swapped game pairs from the opening book, and then
//
//	θ_i ← clip(θ_i + (a_k/c_k)·(wins−losses)·δ_i, min_i, max_i)
//
// with wins and losses counted in games from θ+'s side. An integer
// parameter's c_k is at least ½ (MinIntCK), and the values sent to the two
// sides are rounded stochastically with one draw, floor(θ±c_k·δ+u) with u
// uniform in [0,1): each side's value is unbiased, and the two are at
// least 1 apart (2·c_k ≥ 1) unless a bound clips them, so no batch plays
// one value against itself; θ itself stays real. Flips, roundings and
// openings come from (seed, k) alone, so a run is the same whatever the
// concurrency and whether or not it was resumed. Runs append one JSON line
// per finished iteration to a file (a header line first) and resume from
// it; a file written before the integer rule was recorded resumes with the
// rule it began with (IntRuleIndependent: no floor, a draw per side).
//
// Where the rule follows fishtest (server/fishtest/spsa_handler.py) and
// OpenBench (OpenBench/spsa_utils.py), and where it differs:
//
//   - Both: c_k = c/k^γ and the step (a_k/c_k)·(wins−losses)·δ_i, which
//     they write R·c_k·(wins−losses)·δ_i with R = a_k/c_k²; a Rademacher
//     flip per parameter; θ± and θ clipped to [min, max]; the defaults
//     α = 0.602 and γ = 0.101.
//   - OpenBench: the parameter file, with the gains given by their values
//     at the last iteration (c_end, r_end); an iteration of a batch of
//     game pairs; for an int parameter, c_k at least 0.5 and one rounding
//     draw for both sides. fishtest has no floor and sends the sides real
//     values.
//   - Here only: everything random is drawn from (seed, k), not from a
//     global generator, so that a resumed run equals an uninterrupted one.
//
// The parameter file has one parameter per line in OpenBench's format,
//
//	name, int|float, start, min, max, c_end, r_end
//
// with # comments and blank lines (ParseParams).
//
// # Sweep
//
// A sweep (NewSweep, RunSweep) rates one key of an agent spec at a list
// of values: each value agent plays the same gauntlet of opponents, from
// the same openings with the same seeds (paired), in one arena tournament
// of kind results.Sweep, whose value agents never meet (Sweep.Options; the
// header records the kind, so a resume or a broker worker plans the same
// games, and Sweep.Check refuses another run's file). One fit of all games rates
// everyone on one scale, anchored by default at the first opponent = 0;
// the result is a point per value with its 95 % interval (SweepResult).
//
// # Texel
//
// Texel fits a game's evaluation weights (games.Weighted) to the results of
// recorded games (SamplePositions, then Texel), or of self-play games of
// the agent whose weights they are (SelfPlay, kept in a record file that
// an interrupted run continues: ReadSelfPlay): each sampled position, past
// the opening plies and not terminal, is labelled with its game's result
// r ∈ {1, ½, 0} for the side to move, and the fit minimises the mean of
// (r − σ(e))² with σ(e) = 1/(1+10^(−K·e/400)), e the evaluation for the side
// to move. K is fitted first with the start weights, then the weights with
// K fixed: gonum's Nelder–Mead on reals rounded to the integer weights and
// kept in their ranges, then ±1 steps until none improves.
package tune
