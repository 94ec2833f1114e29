package pyrga

import "flag"

var update = flag.Bool("update", false, "rewrite testdata files (perft counts after cross-checking, golden transcripts)")
