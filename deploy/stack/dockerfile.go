package stack

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// Dockerfile is deploy/Dockerfile read into stages, in order.
type Dockerfile struct {
	Stages []*Stage
	args   map[string]string // global ARGs (before the first FROM)
}

// Stage is one FROM ... AS name and its instructions.
type Stage struct {
	Name, Base string
	Instrs     []Instr
}

// Instr is one instruction: its keyword (upper case), its flags (--from=web)
// and its arguments, as written (continuation lines joined).
type Instr struct {
	Cmd   string
	Flags map[string]string
	Args  string
	Line  int
}

// ParseDockerfile reads the instructions of a Dockerfile with BuildKit's own
// parser (the one docker build uses: comments, continuations, escapes and
// heredocs as Docker reads them), then groups them into stages.
func ParseDockerfile(r io.Reader) (*Dockerfile, error) {
	res, err := parser.Parse(r)
	if err != nil {
		return nil, err
	}
	d := &Dockerfile{args: map[string]string{}}
	var cur *Stage
	for _, n := range res.AST.Children {
		in := Instr{Cmd: strings.ToUpper(n.Value), Flags: map[string]string{}, Line: n.StartLine}
		for _, flag := range n.Flags {
			k, v, _ := strings.Cut(strings.TrimPrefix(flag, "--"), "=")
			in.Flags[k] = v
		}
		// The arguments as written: the instruction's text after its keyword
		// and flags (continuation lines joined by the parser).
		_, rest, _ := strings.Cut(n.Original, " ")
		rest = strings.TrimSpace(rest)
		for strings.HasPrefix(rest, "--") {
			_, after, _ := strings.Cut(rest, " ")
			rest = strings.TrimSpace(after)
		}
		in.Args = rest
		switch {
		case in.Cmd == "FROM":
			f := strings.Fields(rest)
			cur = &Stage{Base: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				cur.Name = f[2]
			}
			d.Stages = append(d.Stages, cur)
		case cur == nil && in.Cmd == "ARG":
			k, v, _ := strings.Cut(rest, "=")
			d.args[k] = v
		case cur == nil:
			return nil, fmt.Errorf("line %d: %s before the first FROM", in.Line, in.Cmd)
		default:
			cur.Instrs = append(cur.Instrs, in)
		}
	}
	return d, nil
}

// Stage returns the stage named name.
func (d *Dockerfile) Stage(name string) *Stage {
	for _, s := range d.Stages {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Image is an assembled image: its file tree under Root (the image's "/"),
// and its configuration as the Dockerfile leaves it.
type Image struct {
	Root       string
	Env        []string // KEY=value, in order
	Workdir    string   // inside the image
	User       string
	Cmd        []string
	Entrypoint []string
	args       map[string]string
}

// HostPath is p (a path inside the image) on this machine.
func (im *Image) HostPath(p string) string { return filepath.Join(im.Root, filepath.FromSlash(p)) }

// Getenv is the image's value of an ENV variable.
func (im *Image) Getenv(k string) string {
	for i := len(im.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(im.Env[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// BuildSteps says what stands in for the RUN steps that a build needs the
// network or minutes for: each maps a RUN command (exactly as written) to a
// function that puts that step's result into the stage's tree from the
// repository, where make has already produced it. Every other RUN step is
// run as written (paths inside the image moved under the stage's tree).
type BuildSteps map[string]func(im *Image, workdir string) error

// Replayer assembles images from a Dockerfile, the build context (the
// repository) and its .dockerignore.
type Replayer struct {
	File    *Dockerfile
	Context string   // the build context: the repository root
	Ignore  []string // .dockerignore patterns
	Dir     string   // where the stage trees go
	Steps   BuildSteps
	Log     func(format string, args ...any)
	built   map[string]*Image
}

// Build assembles stage name (and the stages it needs) and returns it.
func (r *Replayer) Build(name string) (*Image, error) {
	if im, ok := r.built[name]; ok {
		return im, nil
	}
	if r.built == nil {
		r.built = map[string]*Image{}
	}
	s := r.File.Stage(name)
	if s == nil {
		return nil, fmt.Errorf("deploy/Dockerfile has no stage %q", name)
	}
	root := filepath.Join(r.Dir, name)
	im := &Image{Root: root, Workdir: "/", args: map[string]string{}}
	for k, v := range r.File.args {
		im.args[k] = v
	}
	if base := r.File.Stage(s.Base); base != nil {
		// FROM another stage: a copy of its tree and configuration.
		b, err := r.Build(base.Name)
		if err != nil {
			return nil, err
		}
		// Hard links: cheap, and a RUN step replaces the files it changes
		// (npm and go write new files) rather than editing them in place.
		if err := run("", "cp", "-al", b.Root, root); err != nil {
			return nil, err
		}
		im.Env = append([]string(nil), b.Env...)
		im.Workdir, im.User, im.Cmd, im.Entrypoint = b.Workdir, b.User, b.Cmd, b.Entrypoint
		for k, v := range b.args {
			im.args[k] = v
		}
	} else if err := os.MkdirAll(root, 0o755); err != nil {
		// FROM an outside image: its files (Node, Debian) are this
		// machine's; the tree holds what the Dockerfile adds.
		return nil, err
	}
	for _, in := range s.Instrs {
		if err := r.apply(im, in); err != nil {
			return nil, fmt.Errorf("deploy/Dockerfile line %d (%s, stage %s): %w", in.Line, in.Cmd, name, err)
		}
	}
	r.built[name] = im
	return im, nil
}

var varRef = regexp.MustCompile(`\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)`)

// expand replaces $VAR and ${VAR:-default} with the stage's ARG and ENV values.
func (im *Image) expand(s string) string {
	return varRef.ReplaceAllStringFunc(s, func(m string) string {
		g := varRef.FindStringSubmatch(m)
		k := g[1] + g[3]
		if v := im.Getenv(k); v != "" {
			return v
		}
		if v := im.args[k]; v != "" {
			return v
		}
		return g[2]
	})
}

func (r *Replayer) apply(im *Image, in Instr) error {
	switch in.Cmd {
	case "WORKDIR":
		if w := im.expand(in.Args); path.IsAbs(w) {
			im.Workdir = path.Clean(w)
		} else {
			im.Workdir = path.Join(im.Workdir, w)
		}
		return os.MkdirAll(im.HostPath(im.Workdir), 0o755)
	case "ENV":
		for _, kv := range splitEnv(in.Args) {
			k, v, _ := strings.Cut(kv, "=")
			im.Env = append(im.Env, k+"="+im.expand(v))
		}
	case "ARG":
		k, v, ok := strings.Cut(in.Args, "=")
		if _, global := r.File.args[k]; !ok && global {
			v = r.File.args[k]
		}
		im.args[k] = v
	case "USER":
		im.User = in.Args
	case "CMD", "ENTRYPOINT":
		var argv []string
		if err := json.Unmarshal([]byte(in.Args), &argv); err != nil {
			return fmt.Errorf("want the exec (JSON) form: %v", err)
		}
		if in.Cmd == "CMD" {
			im.Cmd = argv
		} else {
			im.Entrypoint = argv
		}
	case "COPY":
		return r.copy(im, in)
	case "RUN":
		return r.run(im, in)
	case "EXPOSE", "HEALTHCHECK", "LABEL", "STOPSIGNAL":
		// Metadata: the tests read what they need of it from the file.
	default:
		return fmt.Errorf("the image test does not know how to replay %s", in.Cmd)
	}
	return nil
}

// copy replays COPY [--from=stage] src... dst as Docker does: a directory's
// contents go into dst; files go into dst when it ends in / or there are
// several, else become dst; a relative dst is under WORKDIR. From the build
// context, .dockerignore applies.
func (r *Replayer) copy(im *Image, in Instr) error {
	f := strings.Fields(im.expand(in.Args))
	if len(f) < 2 {
		return fmt.Errorf("COPY needs a source and a destination")
	}
	srcs, dst := f[:len(f)-1], f[len(f)-1]
	if !path.IsAbs(dst) {
		dst = path.Join(im.Workdir, dst) + map[bool]string{true: "/"}[strings.HasSuffix(dst, "/")]
	}
	intoDir := strings.HasSuffix(dst, "/") || len(srcs) > 1
	fromContext := true
	var srcRoot string
	if from := in.Flags["from"]; from != "" {
		st, err := r.Build(from)
		if err != nil {
			return err
		}
		srcRoot, fromContext = st.Root, false
	} else {
		srcRoot = r.Context
	}
	for _, src := range srcs {
		hostSrc := filepath.Join(srcRoot, filepath.FromSlash(src))
		fi, err := os.Stat(hostSrc)
		if err != nil {
			return fmt.Errorf("COPY source %s: %w", src, err)
		}
		target := im.HostPath(dst)
		if !fi.IsDir() && intoDir {
			target = filepath.Join(target, path.Base(src))
		}
		var ignore func(string) bool
		if fromContext {
			rel := strings.TrimPrefix(path.Clean(src), "/")
			ignore = func(p string) bool { return r.ignored(path.Join(rel, p)) }
		}
		if err := copyTree(hostSrc, target, ignore); err != nil {
			return err
		}
	}
	return nil
}

// ignored reports whether the context path p (slash-separated, relative)
// is excluded by .dockerignore.
func (r *Replayer) ignored(p string) bool {
	for _, pat := range r.Ignore {
		pat = strings.TrimPrefix(pat, "/")
		if rest, ok := strings.CutPrefix(pat, "**/"); ok {
			// Any depth: match the pattern against each trailing part.
			parts := strings.Split(p, "/")
			for i := range parts {
				for j := i + 1; j <= len(parts); j++ {
					if ok, _ := path.Match(rest, strings.Join(parts[i:j], "/")); ok {
						return true
					}
				}
			}
			continue
		}
		// A pattern matches the path or one of its parent directories.
		for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(pat, q); ok {
				return true
			}
		}
	}
	return false
}

// copyTree copies src (file or directory) to dst, keeping modes and
// symbolic links (as cp -a), leaving out relative paths ignore reports.
func copyTree(src, dst string, ignore func(rel string) bool) error {
	return filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && ignore != nil && ignore(rel) {
			if fi.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			os.Remove(target)
			return os.Symlink(link, target)
		case fi.IsDir():
			return os.MkdirAll(target, 0o755)
		default:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			return copyFile(p, target, fi.Mode())
		}
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode.Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// absPath is a path inside the image written in a RUN command: after the
// start, a space, '=' or a quote, a '/' then a name character.
var absPath = regexp.MustCompile(`(^|[\s="'])/([\w.-])`)

// run replays RUN: a step BuildSteps names is done from make's results,
// any other runs with sh in the stage's WORKDIR, each absolute path in it
// moved under the stage's tree.
func (r *Replayer) run(im *Image, in Instr) error {
	cmdline := strings.TrimSpace(in.Args)
	workdir := im.HostPath(im.Workdir)
	if step, ok := r.Steps[cmdline]; ok {
		r.logf("RUN %s: from make's result", cmdline)
		return step(im, workdir)
	}
	if strings.HasPrefix(cmdline, "[") {
		return fmt.Errorf("RUN in exec form is not replayed; write it as a shell command")
	}
	expanded := absPath.ReplaceAllString(im.expand(cmdline), "${1}"+im.Root+"/${2}")
	r.logf("RUN %s", expanded)
	cmd := exec.Command("sh", "-c", expanded)
	cmd.Dir = workdir
	cmd.Env = append(os.Environ(), im.Env...)
	for _, kv := range im.Env { // ENV paths point inside the image
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(v, "/") {
			cmd.Env = append(cmd.Env, k+"="+im.HostPath(v))
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", expanded, err, out)
	}
	return nil
}

func (r *Replayer) logf(format string, args ...any) {
	if r.Log != nil {
		r.Log(format, args...)
	}
}

// splitEnv splits ENV's arguments: "K=v K2=v2" or the legacy "K v".
func splitEnv(s string) []string {
	f := strings.Fields(s)
	if len(f) >= 2 && !strings.Contains(f[0], "=") {
		return []string{f[0] + "=" + strings.Join(f[1:], " ")}
	}
	return f
}

func run(dir string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}
