package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register(command{"version", groupInfo, "print the module version and the revision it was built from", runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "", stderr)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprint(stdout, versionText(info))
	return nil
}

// versionText is what arena version prints of the build information: the
// module and its version, the VCS revision and time (with "modified" for
// a tree with uncommitted changes), and the Go toolchain.
func versionText(info *debug.BuildInfo) string {
	if info == nil {
		return fmt.Sprintf("arena: no build information\n%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	s := fmt.Sprintf("arena %s %s\n", info.Main.Version, info.Main.Path)
	settings := map[string]string{}
	for _, kv := range info.Settings {
		settings[kv.Key] = kv.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		s += "revision " + rev
		if t := settings["vcs.time"]; t != "" {
			s += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			s += ", modified"
		}
		s += "\n"
	} else {
		s += "revision unknown: go run, go test, and builds with -buildvcs=false or outside a git clone record none\n"
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	return s + fmt.Sprintf("%s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
