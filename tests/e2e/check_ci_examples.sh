#!/usr/bin/env bash
# The example pipelines under deploy/ci/ (GitHub Actions, GitLab CI): both parse as YAML (PyYAML,
# Debian's python3-yaml); every kvzbench command line in them (`kvz.sh bench ARGS` is `kvzbench
# run ARGS`) names only options its subcommand's --help lists; and each `check` line, run as
# written on two small real runs (the CI variables pointing into $work), exits 0 and writes its
# JUnit and Markdown files. The GitHub workflow gives the workspace back to the runner's user after
# its sudo step, in a step that runs whatever failed (a self-hosted runner's next checkout must
# delete what root wrote); that step's command runs here on a workspace of root's files.
source "$(dirname "$0")/common.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 -c 'import yaml' 2>/dev/null || fail "python3 cannot import yaml (Debian: apt-get install python3-yaml)"

"$kvz" run -q -c lz4/zstd:1 -b 4K -d dbbench --time 0.01 --repetitions 1 --json "$work/baseline.json" \
  >"$work/run.log" 2>&1 || fail "kvzbench run (the check lines' baseline) failed"
cp "$work/baseline.json" "$work/current.json"
for sub in run check; do "$kvz" "$sub" --help >"$work/help-$sub.txt" 2>&1 || fail "kvzbench $sub --help failed"; done

KVZ="$kvz" WORK="$work" python3 - "$root/deploy/ci/github-actions.yml" "$root/deploy/ci/gitlab-ci.yml" <<'PY'
import os, re, shlex, subprocess, sys
import yaml

work, kvz = os.path.abspath(os.environ["WORK"]), os.path.abspath(os.environ["KVZ"])
errors = []
OPERATORS = set("();<>|&")


def scripts(node):
    """Every shell script of a pipeline: GitHub steps' `run`, GitLab jobs' `script` lists."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("run", "script", "before_script", "after_script"):
                for s in value if isinstance(value, list) else [value]:
                    if isinstance(s, str):
                        yield s
            else:
                yield from scripts(value)
    elif isinstance(node, list):
        for value in node:
            yield from scripts(value)


def kvzbench_lines(script):
    """(subcommand, args) of each kvzbench command in a script; `kvz.sh bench` runs `kvzbench run`."""
    for line in script.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
        for i, tok in enumerate(tokens):
            base = os.path.basename(tok)
            if base == "kvzbench" and i + 1 < len(tokens):
                sub, start = tokens[i + 1], i + 2
            elif base == "kvz.sh" and tokens[i + 1 : i + 2] == ["bench"]:
                sub, start = "run", i + 2
            else:
                continue
            args = []
            for t in tokens[start:]:
                if set(t) <= OPERATORS:
                    break
                args.append(t)
            yield sub, args


def help_options(sub):
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", open(f"{work}/help-{sub}.txt").read()))


found = {}
for path in sys.argv[1:]:
    name = os.path.basename(path)
    try:
        doc = yaml.safe_load(open(path))
    except yaml.YAMLError as e:
        errors.append(f"{name}: not YAML: {e}")
        continue
    if not isinstance(doc, dict):
        errors.append(f"{name}: not a YAML mapping")
        continue
    lines = [cmd for s in scripts(doc) for cmd in kvzbench_lines(s)]
    found[name] = lines
    for sub, args in lines:
        if sub not in ("run", "check"):
            errors.append(f"{name}: kvzbench {sub}: not a subcommand this test knows")
            continue
        known = help_options(sub)
        unknown = [a for a in args if a.startswith("-") and a.split("=")[0] not in known]
        for a in unknown:
            errors.append(f"{name}: kvzbench {sub} {' '.join(args)}: {a} is not in `kvzbench {sub} --help`")
        if not unknown:
            print(f"{name}: kvzbench {sub} {' '.join(args)}: every option is in --help")

gh, gl = found.get("github-actions.yml"), found.get("gitlab-ci.yml")
if gh is not None:
    jobs = yaml.safe_load(open(sys.argv[1])).get("jobs", {})
    for job, spec in jobs.items():
        for step in spec.get("steps", []):
            if ("uses" in step) == ("run" in step):
                errors.append(f"github-actions.yml: job {job}: a step needs exactly one of uses and run: {step}")
    # After the last step that runs sudo, an always() step gives the workspace back to the runner's
    # user; its command, run here (stand-ins: sudo runs its command, id answers 65534 as the
    # runner's user would), leaves no file in a workspace of root's files owned by anyone else.
    for job, spec in jobs.items():
        steps = spec.get("steps", [])
        sudo = [i for i, st in enumerate(steps) if "sudo " in st.get("run", "") and "chown" not in st["run"]]
        if not sudo:
            continue
        cleanup = [st for st in steps[sudo[-1] + 1 :] if "chown -R" in st.get("run", "")]
        if not cleanup or "always()" not in str(cleanup[-1].get("if", "")):
            errors.append(f"github-actions.yml: job {job}: no always() step after sudo gives the workspace back")
            continue
        ws, shims = f"{work}/workspace", f"{work}/shims"
        os.makedirs(f"{ws}/build/release/.cache", exist_ok=True)
        os.makedirs(shims, exist_ok=True)
        for f in ("current.json", "build/release/kvzbench", "build/release/.cache/x"):
            open(f"{ws}/{f}", "w").close()
        with open(f"{shims}/sudo", "w") as f:
            f.write('#!/bin/sh\nexec "$@"\n')
        with open(f"{shims}/id", "w") as f:
            f.write("#!/bin/sh\necho 65534\n")
        for f in ("sudo", "id"):
            os.chmod(f"{shims}/{f}", 0o755)
        env = dict(os.environ, GITHUB_WORKSPACE=ws, PATH=f"{shims}:{os.environ['PATH']}")
        done = subprocess.run(["bash", "-e", "-c", cleanup[-1]["run"]], env=env, capture_output=True, text=True)
        owners = {(st.st_uid, st.st_gid) for d, subdirs, files in os.walk(ws)
                  for st in [os.lstat(os.path.join(d, n)) for n in subdirs + files + ["."]]}
        if done.returncode != 0 or owners != {(65534, 65534)}:
            errors.append(f"github-actions.yml: the cleanup step exited {done.returncode}, owners {owners}: {done.stderr}")
        else:
            print(f"github-actions.yml: {cleanup[-1]['name']}: always() after sudo; a workspace of root's files is the runner's")
if gl is not None:
    job = yaml.safe_load(open(sys.argv[2])).get("kvzbench-check", {})
    if job.get("artifacts", {}).get("reports", {}).get("junit") != "junit.xml":
        errors.append("gitlab-ci.yml: kvzbench-check has no artifacts:reports:junit junit.xml")

# Each pipeline runs the quick profile and a check with both CI outputs; each check line runs.
os.environ["GITHUB_STEP_SUMMARY"] = f"{work}/step-summary.md"
for name, lines in found.items():
    runs = [a for s, a in lines if s == "run" and "--profile" in a and a[a.index("--profile") + 1] == "quick"]
    checks = [a for s, a in lines if s == "check"]
    if not runs or not checks:
        errors.append(f"{name}: no `run --profile quick` or no `check` line")
    for args in checks:
        if "--junit" not in args or "--markdown" not in args:
            errors.append(f"{name}: check {' '.join(args)}: lacks --junit or --markdown")
            continue
        argv = [kvz, "check"] + [os.path.expandvars(a) for a in args]
        if any("$" in a for a in argv):
            errors.append(f"{name}: check: an unset variable in {argv}")
            continue
        outputs = [os.path.join(work, argv[argv.index(o) + 1]) for o in ("--junit", "--markdown")]
        for out in outputs:
            if os.path.exists(out):
                os.remove(out)
        done = subprocess.run(argv, cwd=work, capture_output=True, text=True)
        if done.returncode != 0 or not all(os.path.isfile(o) and os.path.getsize(o) for o in outputs):
            errors.append(f"{name}: `{' '.join(argv)}` exited {done.returncode}: {done.stderr.strip()[:300]}")
        else:
            print(f"{name}: ran kvzbench check {' '.join(args)}")

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
echo "check_ci_examples e2e: both pipelines parse; their kvzbench lines use only accepted options; the check lines run; the workspace goes back to the runner after sudo"
