// Package results reads and writes game records and turns them into
// ratings, statistics, tables and exports. It never needs a game to be
// running: everything comes from the records the arena wrote.
//
// # Records
//
// A record file is JSON Lines. The first line is a Header holding the whole
// Config of the run (game, agents, games per pairing, seed, openings,
// limits, SPRT parameters, number of planned games) and the format Version.
// Every finished game adds one GameRecord line, written with a single write as
// the game ends, so a killed process loses at most the line being written;
// Read ignores such a torn last line and Append cuts it off before
// continuing the file. A resumed run adds a Resume line. Read checks every
// line and reports problems as "file:line: what is wrong".
//
// A Tally reads record files line by line and keeps only counts (a
// Summary: per-pair and per-colour results, terminations, plies, moves,
// time and nodes per player), so its memory grows with the players and
// not with the games; it checks lines as Read does and files as Merge
// does, and its Analyse equals Analyse on the merged Dataset.
// Lines in the form AppendGame writes are decoded by a scanner that reads
// only those fields; any other line goes through Read's decoder.
//
// Times per move: when a clock was in force (Config.TimeControl, or an
// agent's tc= key; Player.TC names each player's), GameRecord.Clocks holds both
// players' time left in milliseconds after every ply the agents played
// (NoClock for a player without one), and GameRecord.MoveStats has one entry per
// move an agent was asked for — who, how long, and the depth, score, nodes
// and info an agents.Reporter gave for it (an engine's pv and nps are in
// info). MoveStats is also kept without a clock when either agent reports
// statistics; games between agents that do neither carry neither list.
//
// # Ratings
//
// FitRatings makes one maximum-likelihood fit over all games: the
// Bradley–Terry (logistic Elo) model, P(i beats j) = 1/(1+10^((Rj−Ri)/400)),
// with a draw counting as half a win (HalfWin) or, optionally, draws
// modelled à la Davidson, and optionally a fitted first-move advantage.
// The likelihood is maximised by Newton's method with the analytic
// gradient, each step solved by conjugate gradients on Hessian-vector
// products over the pairings (the Hessian is never formed: memory in the
// pairs that met), one player of each connected group held at 0 (ratings are only defined up
// to a shift); the result is then anchored: every group averages 0, or one
// named player gets a fixed rating. Players that are not connected by games
// form separate groups whose ratings cannot be compared; the fit reports the
// groups. When a player scored 100 % against the rest of its group the pure
// maximum lies at infinity; that player's rating then comes from AutoPrior
// virtual draws per pair that met, the others are rated by maximum
// likelihood without it, and the fit says so (Fit.Regularised). Davidson's
// ratings are rescaled to the half model's Elo scale (Fit.EloScale).
//
// The zero point of a group is the mean of the players whose ratings the
// data bound (Ratings.Reference): those bounded in the games, with an
// interval finite on both sides. A mean that included a prior-driven or
// barely bounded rating would move with it, and every rating with it, and
// the others' intervals covered the truth too rarely (about 90 % for 95 %).
//
// A bootstrap interval is open (Ratings.Low = −Inf or High = +Inf) on a
// side where the data cannot bound the rating: too many resamples leave
// the player with 100 % or 0 % against the rest. The bounded side of a
// player with a perfect or nil score is a performance bound: its
// opponents' mean rating plus the Elo of Wilson's score interval over its
// colour-swapped game pairs (or games). A group of two players, a
// group in which no two players are bounded against each other, and
// players bounded in the data all of whose games with each other were
// drawn (every resample rates them equal), take their intervals from
// the score differences of the players who met, as
// arena match computes them (Penta.Estimate, EstimateWDL): with two
// players at mean 0, half the difference's interval each, so that a
// 60-0-0 match's winner is bounded below by half match's bound; two
// players' likelihood of superiority is match's too. Under Davidson with
// draws, or with a first-move advantage, two players keep the
// bootstrap's (unless they drew every game): their fitted difference is
// not the Elo of the score. A
// prior (FitOptions.Prior) moves ratings but closes none of these open
// sides: resampled, a sweep is a sweep again, and the prior would give
// it the same rating every time.
//
// Rate adds confidence intervals by the percentile bootstrap: the games are
// resampled with replacement (drawn as multinomial counts per pairing and
// outcome, the same distribution at a cost independent of the number of
// games: RateCounts works from counts alone), every resample is fitted and
// anchored the same way, and the interval is the central 95 % of the replicate ratings, so it
// may be asymmetric. Replicate r draws from its own seeded stream, so the
// intervals do not depend on how many goroutines computed them. The share of
// replicates in which one player rates above another is the likelihood of
// superiority (LOS).
//
// # Matches
//
// A Penta counts colour-swapped game pairs by their outcome [LL, LD, DD+WL,
// WD, WW]. SPRT.LLR is the generalised (pentanomial) log-likelihood ratio of
// the two hypotheses, each the most likely pair distribution with the
// hypothesis' expected score; Decide compares it with Wald's bounds
// log(β/(1−α)) and log((1−β)/α). Hypotheses are in logistic Elo or in
// normalized Elo (see Normalized). SPRT.OnPenta and OnWDL run the test on
// counts alone, with the Elo estimates (an SPRTResult, arena sprt's). A match counts pairs in round order
// and stops counting at the decision (PairTracker); the ratings count
// every recorded game, and a report's notes say how many the match
// counted when that is fewer (Summary.Matches).
//
// A Race picks the best of K candidates that each play pairs against a
// common base: per-candidate GSPRTs at α/K (Bonferroni) with Paulson's
// sequential elimination of the clearly worse, so that a winner no better
// than Elo0 is named with probability at most α and a best candidate δ
// clear of the rest is missed with probability at most β. RaceSim
// simulates races of known strengths, and K independent SPRTs to compare.
//
// # Output
//
// Analyse (and Tally.Analyse) gathers standings, crosstable, LOS,
// per-colour results, termination reasons and mean game length into an
// Analysis; Analysis.Write renders it as text, markdown, CSV or JSON.
// ExportPGN and ExportCSV write the games for other tools.
//
// # Options
//
// AnalysisOptions (bootstrap, seed, draw model, prior, anchor, first-move
// advantage) are checked by AnalysisOptions.Check, which Analyse runs
// too, with CheckAnchor for the players; ParseDraws, ParseAnchor,
// ParseSPRT, ParseShard, ParsePenta and ParseWDL read text forms. A
// refused option is an *option.Error that names it (Bootstrap, Prior,
// Anchor, Shard, Penta, …), never a command line's flag: arena's command
// line shows it as its flag.
//
// # Meta-game
//
// RateMetaGame (and Analysis with AnalysisOptions.MetaGame) treats the
// players as the moves of a symmetric zero-sum game, with win-rate
// payoffs: a player's score share against another minus ½, over both
// colours, draws half a point. Win rates rather than logits because a
// logit is infinite for a pair one side swept, which resamples make
// common. Only players every two of whom met take part (metaPlayers
// drops the rest, and says so). MaxEntNash finds Balduzzi et al.'s
// maximum-entropy Nash equilibrium (linear programs for its face, a
// log-barrier method for the entropy); NashScores gives each player's
// payoff against it (Nash averaging). AlphaRank is Omidshafiei et al.'s
// single-population α-Rank with a finite population; SweepAlpha picks α.
// Both get percentile intervals from the Elo bootstrap's resampler, and
// Cycle lists non-transitive triples with Beta-posterior edge
// probabilities. docs/ratings.md has the details and the choices.
package results
