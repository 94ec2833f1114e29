package main

// The tests that keep the README and docs/ true to the command line: every
// command has its page, every flag is documented and no page documents a
// flag that does not exist, every command line in a shell block uses real
// flags, every relative link leads somewhere, and every shell block runs
// unless it says why it cannot.

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the checkout, seen from this package's directory.
var repoRoot = filepath.Join("..", "..")

// docFiles lists README.md and every Markdown file under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(repoRoot, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// codeBlock is a fenced block of a Markdown file.
type codeBlock struct {
	file   string
	line   int    // of the opening fence
	lang   string // the info string: "sh", "text", …
	notRun string // the reason given by <!-- not run: REASON --> just before it
	text   string
}

var notRunMark = regexp.MustCompile(`^<!-- not run: (.*?) ?-->$`)

// codeBlocks returns the fenced blocks of a Markdown file.
func codeBlocks(t *testing.T, file string) []codeBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []codeBlock
	var cur *codeBlock
	prev := ""
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &codeBlock{file: file, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			if m := notRunMark.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				cur.notRun = m[1]
				if strings.TrimSpace(m[1]) == "" {
					t.Errorf("%s:%d: <!-- not run: --> without a reason", file, i)
				}
			}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
		prev = line
	}
	if cur != nil {
		t.Errorf("%s:%d: code block not closed", file, cur.line)
	}
	return blocks
}

// shellWords splits a shell command line into words, keeping quoted parts
// whole (quotes removed); it stops at a comment.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '#' && !in:
			return words
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// arenaCommands finds the arena command lines of a shell block: the words
// of each, from "arena" to the end of that command (a pipe, ;, && or &).
func arenaCommands(text string) [][]string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out [][]string
	for _, line := range strings.Split(text, "\n") {
		words := shellWords(line)
		for i := 0; i < len(words); i++ {
			if words[i] != "arena" && !strings.HasSuffix(words[i], "/arena") || i > 0 && words[i-1] == "-o" {
				continue // not arena, or the output of go build -o bin/arena
			}
			j := i + 1
			for j < len(words) && !slices.Contains([]string{"|", ";", "&&", "||", "&", ">", "2>", "2>&1"}, words[j]) {
				j++
			}
			out = append(out, words[i:j])
			i = j
		}
	}
	return out
}

// commandSets returns, for every command line ("tournament", "tune
// spsa"), its flag set as --help makes it.
func commandSets(t *testing.T) map[string]*flagSet {
	t.Helper()
	sets := map[string]*flagSet{}
	for _, cmd := range commandLines() {
		var made []*flagSet
		newFlagSetHook = func(fs *flagSet) { made = append(made, fs) }
		code, _, stderr := runArena(append(cmd, "--help")...)
		newFlagSetHook = nil
		if code != 0 || len(made) == 0 {
			t.Fatalf("arena %s --help: exit %d: %s", strings.Join(cmd, " "), code, stderr)
		}
		sets[strings.Join(cmd, " ")] = made[len(made)-1]
	}
	return sets
}

// flagBullet is a flag's entry in a command page: a list item that starts
// with the flag in back quotes.
var flagBullet = regexp.MustCompile("^[*-] `--([A-Za-z0-9-]+)")

// TestDocsPageForEveryCommand: every command arena help lists has its page
// in docs/commands, whose "## Flags" section lists every flag --help
// prints (and no flag the command does not have).
func TestDocsPageForEveryCommand(t *testing.T) {
	for name, fs := range commandSets(t) {
		page := docPage(name)
		data, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Errorf("arena %s has no reference page: %v", name, err)
			continue
		}
		if !strings.HasPrefix(string(data), "# arena "+name+"\n") {
			t.Errorf("%s: the first line is not %q", page, "# arena "+name)
		}
		documented := map[string]bool{}
		helpGroup := map[string]string{} // flag → the title of its group in --help
		var helpTitles, pageTitles []string
		for _, g := range fs.groups {
			helpTitles = append(helpTitles, g.title)
			for _, n := range g.names {
				helpGroup[n] = g.title
			}
		}
		inFlags, heading := false, ""
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasPrefix(line, "## ") {
				inFlags = line == "## Flags"
			}
			if title, ok := strings.CutPrefix(line, "### "); ok && inFlags {
				heading = title
				pageTitles = append(pageTitles, title)
			}
			m := flagBullet.FindStringSubmatch(line)
			if !inFlags || m == nil {
				continue
			}
			if fs.Lookup(m[1]) == nil {
				t.Errorf("%s:%d: documents --%s, which arena %s does not have", page, n, m[1], name)
			}
			if g := helpGroup[fs.canonical(m[1])]; g != "" && g != heading {
				t.Errorf("%s:%d: --%s is under ### %s; arena %s --help lists it under %s", page, n, m[1], heading, name, g)
			}
			documented[fs.canonical(m[1])] = true
		}
		if !slices.Equal(pageTitles, helpTitles) {
			t.Errorf("%s: the flag groups are %q; arena %s --help prints %q", page, pageTitles, name, helpTitles)
		}
		fs.VisitAll(func(f *flag.Flag) {
			if fs.aliases[f.Name] == "" && !documented[f.Name] {
				t.Errorf("%s: --%s of arena %s is not documented (a bullet \"* `--%s …\" under ## Flags)", page, f.Name, name, f.Name)
			}
		})
	}
}

// TestDocsCommandLinesUseRealFlags: every arena command line in a shell
// block of the README or docs names a command that exists and only flags
// it has.
func TestDocsCommandLinesUseRealFlags(t *testing.T) {
	sets := commandSets(t)
	for _, file := range docFiles(t) {
		for _, b := range codeBlocks(t, file) {
			if b.lang != "sh" {
				continue
			}
			for _, words := range arenaCommands(b.text) {
				if len(words) < 2 || strings.HasPrefix(words[1], "-") {
					words = append([]string{"arena", "tournament"}, words[1:]...)
				}
				name := words[1]
				if name == "tune" && len(words) > 2 {
					name += " " + words[2]
				}
				if name == "help" || name == "tune" {
					continue
				}
				fs := sets[name]
				if fs == nil {
					t.Errorf("%s (block at line %d): arena %s is not a command", file, b.line, name)
					continue
				}
				for _, w := range words[2:] {
					if !strings.HasPrefix(w, "-") || w == "-" || strings.Trim(w, "-0123456789.") == "" {
						continue // a word, stdin, or a negative number
					}
					f, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
					if f != "help" && f != "h" && fs.Lookup(f) == nil {
						t.Errorf("%s (block at line %d): arena %s has no flag --%s: %s", file, b.line, name, f, strings.Join(words, " "))
					}
				}
			}
		}
	}
}

// mdLink is a Markdown link or image with a relative target.
var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)\s]*)?\)`)

// TestDocsLinksResolve: every relative link of the README and docs leads
// to a file or directory of the checkout (not outside it: a clone has
// nothing beside it).
func TestDocsLinksResolve(t *testing.T) {
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(data), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				rel := filepath.Join(filepath.Dir(file), target)
				if strings.HasPrefix(rel, "..") {
					t.Errorf("%s:%d: link to %s leaves the checkout", file, n+1, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(repoRoot, rel)); err != nil {
					t.Errorf("%s:%d: link to %s: %v", file, n+1, target, err)
				}
			}
		}
	}
}

// TestDocsExamplesRun runs every shell block of the README and docs not
// marked <!-- not run: REASON -->, as sh -e, the blocks of one file in
// order in one temporary directory that looks like the checkout (each of
// its top-level files and directories linked there, so that examples/…
// and go build ./examples/ugi-go work as in a clone) with arena on the
// PATH. A block that runs python3 is left out, and logged, where python3
// is not installed.
func TestDocsExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documented examples: not in -short")
	}
	arenaBin := arenaBinary(t)
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	_, pyErr := exec.LookPath("python3")
	for _, file := range docFiles(t) {
		var run []codeBlock
		for _, b := range codeBlocks(t, file) {
			if b.lang == "sh" && b.notRun == "" {
				run = append(run, b)
			}
		}
		if len(run) == 0 {
			continue
		}
		t.Run(strings.ReplaceAll(file, "/", "_"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, e := range entries {
				if e.Name() == ".git" {
					continue
				}
				if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
			for _, b := range run {
				if pyErr != nil && strings.Contains(b.text, "python3") {
					t.Logf("%s:%d: not run: python3 is not installed", file, b.line)
					continue
				}
				cmd := exec.Command("sh", "-e", "-c", b.text)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(arenaBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("%s:%d: the shell block failed (%v); mark it <!-- not run: REASON --> if it cannot run here:\n%s\noutput:\n%s",
						file, b.line, err, b.text, tail(string(out), 40))
				}
			}
		})
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[… %d lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
