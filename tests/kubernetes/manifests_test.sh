#!/usr/bin/env bash
# deploy/kubernetes without a cluster: (1) every manifest validates against the Kubernetes API
# schema (npm's kubernetes-models 5.1.0, installed once into the build dir from the pinned
# package-lock.json in tests/kubernetes/npm, integrity-checked by `npm ci`), and a broken copy is
# rejected; every Job mounts the ReadWriteMany claim and pulls IfNotPresent, and the README's
# registry and kubectl commands run with stand-ins for docker and kubectl; (2) the sweep Job's container command, run here once for every completion index
# with the environment Kubernetes gives an Indexed Job's pods, writes one shard each, and the
# merge Job's command joins them into the unsharded run's cells, each exactly once. Substituted
# for a local run: the volume's mount path (a temp dir), the image's entrypoint (this kvzbench),
# and the sweep's size (--profile quick, --time 0.01: the manifest's default sweep takes minutes).
# Usage: manifests_test.sh KVZBENCH BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kvz=$(realpath "$1")
build=$(realpath "$2")
manifests=$here/../../deploy/kubernetes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: kubernetes manifests_test: $*"
  exit 1
}

# 1. The schema.
npm_dir=$build/k8s-validate
if ! cmp -s "$here/npm/package-lock.json" "$npm_dir/package-lock.json" || [ ! -d "$npm_dir/node_modules" ]; then
  command -v npm >/dev/null || fail "npm is not installed (Debian: apt-get install npm); it fetches kubernetes-models once"
  rm -rf "$npm_dir" && mkdir -p "$npm_dir"
  cp "$here/npm/package.json" "$here/npm/package-lock.json" "$npm_dir/"
  (cd "$npm_dir" && timeout 300 npm ci --no-audit --no-fund --fetch-retries=1 --fetch-timeout=60000 >npm.log 2>&1) ||
    fail "npm ci of kubernetes-models failed (npm registry unreachable?): $(grep -m1 -i 'err' "$npm_dir/npm.log" || true)"
fi
cp "$here/validate.mjs" "$npm_dir/"
(cd "$npm_dir" && node validate.mjs "$manifests"/*.yaml) >"$work/valid.log" 2>&1 || {
  cat "$work/valid.log"
  fail "a manifest does not validate"
}
[ "$(grep -c ': valid batch/v1 Job$' "$work/valid.log")" -eq 4 ] || fail "not four valid Jobs: $(cat "$work/valid.log")"
[ "$(grep -c ': valid v1 PersistentVolumeClaim$' "$work/valid.log")" -eq 1 ] ||
  fail "not one valid volume claim: $(cat "$work/valid.log")"
sed 's/^  completions: 8$/  completions: "eight"/' "$manifests/sweep-job.yaml" >"$work/broken.yaml"
! (cd "$npm_dir" && node validate.mjs "$work/broken.yaml") >"$work/broken.log" 2>&1 || fail "a broken Job validated"
grep -q "completions must be integer" "$work/broken.log" || fail "the broken Job's error: $(cat "$work/broken.log")"

# 1b. The claim every Job mounts, and each container's image and pull policy.
python3 - "$manifests" <<'PY' || fail "the claim or the images (above)"
import glob, os, sys, yaml
manifests = sys.argv[1]
docs = [d for f in sorted(glob.glob(os.path.join(manifests, "*.yaml"))) for d in yaml.safe_load_all(open(f)) if d]
(claim,) = [d for d in docs if d["kind"] == "PersistentVolumeClaim"]
assert claim["spec"]["accessModes"] == ["ReadWriteMany"], claim["spec"]["accessModes"]
jobs = [d for d in docs if d["kind"] == "Job"]
for j in jobs:
    pod = j["spec"]["template"]["spec"]
    claims = [v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"] if "persistentVolumeClaim" in v]
    assert claims == [claim["metadata"]["name"]], f"{j['metadata']['name']} mounts {claims}"
    for c in pod["containers"]:
        assert c.get("imagePullPolicy") == "IfNotPresent", f"{j['metadata']['name']}: pull policy {c.get('imagePullPolicy')}"
        assert c["image"] == "kvzbench:latest", f"{j['metadata']['name']}: image {c['image']} is not the README's placeholder"
print(f"{len(jobs)} Jobs mount the claim {claim['metadata']['name']} (ReadWriteMany), every container IfNotPresent")
PY

# 1c. The README's Kubernetes commands, as written, with stand-ins for docker and kubectl that keep
# what they are given: the image built from the Containerfile and pushed under IMAGE, the claim
# applied before any Job, every applied container on IMAGE, and what is applied still valid.
readme=$here/../../README.md
shims=$work/shims
mkdir -p "$shims" "$work/applied"
cat >"$shims/docker" <<'SH'
#!/bin/sh
echo "$*" >>"$KVZ_SHIM_LOG/docker.log"
SH
cat >"$shims/kubectl" <<'SH'
#!/bin/sh
echo "$*" >>"$KVZ_SHIM_LOG/kubectl.log"
if [ "$1" = apply ] && [ "$2" = -f ]; then
  out=$KVZ_SHIM_LOG/applied/$(printf '%02d' "$(ls "$KVZ_SHIM_LOG/applied" | wc -l)").yaml
  if [ "$3" = - ]; then cat >"$out"; else cp "$3" "$out"; fi
fi
SH
chmod +x "$shims/docker" "$shims/kubectl"
python3 - "$readme" "$work" <<'PY'
import re, sys
readme, work = sys.argv[1:]
blocks = [b for b in re.findall(r"^```sh\n(.*?)^```$", open(readme).read(), re.M | re.S) if "kubectl apply" in b]
for i, b in enumerate(blocks):
    open(f"{work}/readme_block_{i}.sh", "w").write(b)
PY
blocks=0
for block in "$work"/readme_block_*.sh; do
  (cd "$here/../.." && PATH="$shims:$PATH" KVZ_SHIM_LOG=$work bash -euo pipefail "$block") ||
    fail "a README block failed: $(cat "$block")"
  blocks=$((blocks + 1))
done
[ "$blocks" -eq 2 ] || fail "expected the README's two Kubernetes blocks (sweep, survey), ran $blocks"
(cd "$npm_dir" && node validate.mjs "$work"/applied/*.yaml) >"$work/applied.log" 2>&1 || {
  cat "$work/applied.log"
  fail "what the README applies does not validate"
}
python3 - "$work" <<'PY' || fail "the README's registry step (above)"
import glob, os, sys, yaml
work = sys.argv[1]
docker = open(os.path.join(work, "docker.log")).read().splitlines()
build = [l.split() for l in docker if l.startswith("build ")]
(b,) = build
image = b[b.index("-t") + 1]
assert b[b.index("-f") + 1] == "deploy/container/Containerfile" and b[-1] == ".", b
assert "/" in image.split(":")[0], f"the image {image} names no registry"
assert f"push {image}" in docker, f"{image} is not pushed: {docker}"
applied = [yaml.safe_load(open(f)) for f in sorted(glob.glob(os.path.join(work, "applied", "*.yaml")))]
kinds = [d["kind"] for d in applied]
assert kinds[0] == "PersistentVolumeClaim" and kinds.count("Job") == 4, kinds
for j in applied[1:]:
    for c in j["spec"]["template"]["spec"]["containers"]:
        assert c["image"] == image and c["imagePullPolicy"] == "IfNotPresent", (j["metadata"]["name"], c["image"])
print(f"README: {image} built from the Containerfile and pushed; the claim, then 4 Jobs on it applied")
PY

# 2. Every index of the Indexed Job, then the merge Job, here.
python3 - "$kvz" "$manifests" "$work" <<'PY' || fail "the Jobs' commands (above)"
import json, os, re, subprocess, sys, yaml
kvz, manifests, work = sys.argv[1:]
def job(name):
    with open(os.path.join(manifests, name)) as f:
        return yaml.safe_load(f)
def only_container(j):
    (c,) = j["spec"]["template"]["spec"]["containers"]
    return c
sweep = job("sweep-job.yaml")
spec, c = sweep["spec"], only_container(sweep)
env = {e["name"]: e["value"] for e in c.get("env", [])}
n = spec["completions"]
assert spec["completionMode"] == "Indexed", "the sweep Job is not Indexed"
assert env.get("KVZ_SHARD_COUNT") == str(n), f"KVZ_SHARD_COUNT {env.get('KVZ_SHARD_COUNT')} != completions {n}"
(mount,) = c["volumeMounts"]
# The mount path where a path starts (not inside "sweep/results-0-of-8.json").
local = lambda s: re.sub(r"(?:^|(?<=\s))" + re.escape(mount["mountPath"]) + r"(?=/|$)", os.path.join(work, "volume"), s)
args = [local(a) for a in c["args"]]
args[args.index("--profile") + 1] = "quick"
args += ["--time", "0.01", "--repetitions", "1", "--latency-seconds", "0.003"]
clean = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_") and k != "JOB_COMPLETION_INDEX"}
for i in range(n):
    pod_env = dict(clean, **env, JOB_COMPLETION_INDEX=str(i))
    r = subprocess.run([kvz] + args, env=pod_env, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"index {i}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
merge = job("merge-job.yaml")
mc = only_container(merge)
assert mc["command"][:2] == ["sh", "-c"], "the merge Job is not a shell command"
script = local(mc["command"][2]).replace("kvzbench ", kvz + " ", 1)
r = subprocess.run(["sh", "-c", script], env=clean, capture_output=True, text=True)
if r.returncode:
    sys.exit(f"merge: exit {r.returncode}: {r.stderr.strip()}")
whole = os.path.join(work, "whole.json")
unsharded = [kvz, "run", "-q", "--profile", "quick", "--time", "0.01", "--repetitions", "1", "--latency-seconds", "0.003"]
r = subprocess.run(unsharded + ["--json", whole], env=clean, capture_output=True, text=True)
if r.returncode:
    sys.exit(f"unsharded run: exit {r.returncode}: {r.stderr.strip()[-300:]}")
ids = lambda p: [c["key"]["id"] for c in json.load(open(p))["kvzbench"]["cells"]]
merged = ids(os.path.join(work, "volume", "sweep", "merged.json"))
want = ids(whole)
assert len(merged) == len(set(merged)), "a cell is in two shards"
assert sorted(merged) == sorted(want), f"merged {len(merged)} cells, unsharded {len(want)}"
shards = sorted(os.listdir(os.path.join(work, "volume", "sweep")))
assert shards == sorted([f"results-{i}-of-{n}.json" for i in range(n)] + ["merged.json"]), shards
print(f"{n} indices, {len(merged)} cells, each once")
PY
# 3. The fleet survey Job: one pod per node, the store mounted read-only at its own path, the
# node's name from the downward API; its command, run here for every index as three stand-in
# nodes (each its own copy of a Cassandra table under the mount's path, KVZ_NODE_NAME as the
# downward API would set it), records that node as the result's host and "ks.events" as the table.
python3 - "$kvz" "$manifests" "$work" "$here/../../../shared/fixtures/stores/cassandra/legacy_nb_clust" <<'PY' ||
import json, os, re, shutil, subprocess, sys, yaml
kvz, manifests, work, fixture = sys.argv[1:]
with open(os.path.join(manifests, "survey-job.yaml")) as f:
    job = yaml.safe_load(f)
spec = job["spec"]
pod = spec["template"]["spec"]
(c,) = pod["containers"]
assert spec["completionMode"] == "Indexed", "the survey Job is not Indexed"
assert spec["parallelism"] == spec["completions"], "not every pod placed at once"
label = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
(term,) = label
assert term["topologyKey"] == "kubernetes.io/hostname", term
own = spec["template"]["metadata"]["labels"]
assert all(own.get(k) == v for k, v in term["labelSelector"]["matchLabels"].items()), "anti-affinity not on its own label"
volumes = {v["name"]: v for v in pod["volumes"]}
mounts = {m["name"]: m for m in c["volumeMounts"]}
store = mounts["store"]
assert store.get("readOnly") is True, "the store is not mounted read-only"
assert "hostPath" in volumes["store"] and volumes["store"]["hostPath"]["path"] == store["mountPath"], \
    "the store's hostPath is not mounted at its own path"
(node_env,) = [e for e in c["env"] if e["name"] == "KVZ_NODE_NAME"]
assert node_env["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName", node_env
assert c["command"][:2] == ["sh", "-c"], "the survey command is not a shell command"
script = c["command"][2]
table_dir = re.search(re.escape(store["mountPath"]) + r"/\S+", script).group(0)
for i in range(spec["completions"]):
    node = os.path.join(work, f"node{i}")
    shutil.copytree(fixture, node + table_dir)
    local = script.replace(store["mountPath"], node + store["mountPath"]).replace("/results", os.path.join(work, "volume"))
    local = local.replace("kvzbench ", kvz + " ", 1) + " --codecs zstd:1 --time 0.01 --repetitions 1 --latency-seconds 0.003"
    env = dict(os.environ, JOB_COMPLETION_INDEX=str(i), KVZ_NODE_NAME=f"node{i}")
    r = subprocess.run(["sh", "-c", local], env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"survey index {i}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    meta = json.load(open(os.path.join(work, "volume", "survey", f"survey-node{i}.json")))["kvzbench"]["meta"]
    assert meta["hostname"] == f"node{i}", meta["hostname"]
    tables = {c.get("table") for c in meta["corpora"]}
    assert tables == {"ks.events"}, tables
print(f"survey: {spec['completions']} indices, one per node, store read-only")
PY
  fail "the survey Job (above)"

echo "kubernetes manifests_test: OK ($(grep -c valid "$work/valid.log") manifests valid, a broken one rejected; the Jobs on the ReadWriteMany claim, IfNotPresent; the README's registry step and applies run with stand-ins; every index of the Indexed Job run here, merged = unsharded; the survey Job spreads one pod per node, mounts the store read-only and records each node)"
