#!/usr/bin/env bash
# Validates deploy/ offline: no cluster, no Docker engine, no network after the first install.
#
#   scripts/validate-manifests.sh
#
#   1. Kubernetes manifests (deploy/k8s/*.yaml but kustomization.yaml): kubernetes-validate --strict
#      (PyPI; bundles the Kubernetes OpenAPI schemas, so unknown fields and wrong types fail) against
#      the oldest and newest Kubernetes versions we support (PETSPOT_K8S_VERSIONS, default
#      "1.29.0 1.37.0");
#   2. deploy/compose.yaml and compose.demo.yaml: check-jsonschema against the Compose Specification
#      schema it bundles, then `podman-compose config` (a real Compose implementation loading the
#      files) when podman is installed;
#   3. cross-references schemas cannot see: the kustomization lists every manifest, the Service and
#      PodDisruptionBudget select the Deployment's pods, the HPA targets the Deployment, the
#      ConfigMap the Deployment reads exists, the probes hit /readyz and /healthz on the container
#      port, and the pod cannot run as root or write its root filesystem; with more than one replica
#      possible, PETSPOT_DATABASE_URL comes from a Secret (and compose's web names its db); the alert mails'
#      PETSPOT_SMTP_URL comes from an optional Secret, never the ConfigMap, the DKIM selector and key file
#      from one Secret that is mounted where the example's key-file says, and compose's web sends to its
#      mail sink without TLS;
#   4. negative cases: copies of deploy/ with one fault each must fail step 3 with the right message.
#
# Tools go into the venv .build-container/venv (PETSPOT_CONTAINER_CACHE moves it).
set -euo pipefail

# shellcheck source=scripts/lib/container-tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/container-tools.sh"
cd "$CT_ROOT"

K8S_DIR=deploy/k8s
COMPOSE=deploy/compose.yaml
COMPOSE_DEMO=deploy/compose.demo.yaml
read -r -a K8S_VERSIONS <<<"${PETSPOT_K8S_VERSIONS:-1.29.0 1.37.0}"

T0=$(ct_now)
PASSED=0
FAILED=0
result() {  # result NAME COMMAND... — runs a check, prints PASS/FAIL with its output on failure
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        PASSED=$((PASSED + 1)); echo "PASS  $name"
    else
        FAILED=$((FAILED + 1)); echo "FAIL  $name"; printf '%s\n' "$out" | sed 's/^/      /'
    fi
}

ct_venv "$CT_PY_KUBE" "$CT_PY_JSONSCHEMA" "$CT_PY_YAML" "$CT_PY_PODMAN_COMPOSE"
PY=$CT_VENV/bin/python

mapfile -t MANIFESTS < <(find "$K8S_DIR" -maxdepth 1 -name '*.yaml' ! -name kustomization.yaml | sort)
[ ${#MANIFESTS[@]} -gt 0 ] || ct_die "no manifests in $K8S_DIR"

# The example Secret (k8s/examples/, not applied by the kustomization) is validated with them.
mapfile -t EXAMPLES < <(find "$K8S_DIR/examples" -maxdepth 1 -name '*.yaml' 2>/dev/null | sort)
for v in "${K8S_VERSIONS[@]}"; do
    result "kubernetes-validate --strict (Kubernetes $v): ${MANIFESTS[*]##*/} ${EXAMPLES[*]##*/}" \
        "$CT_VENV/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$v" "${MANIFESTS[@]}" "${EXAMPLES[@]}"
done

result "compose.yaml, compose.demo.yaml match the Compose Specification schema" \
    "$CT_VENV/bin/check-jsonschema" --builtin-schema vendor.compose-spec "$COMPOSE" "$COMPOSE_DEMO"
if command -v podman >/dev/null; then
    result "podman-compose config loads compose.yaml" \
        timeout 60 "$CT_VENV/bin/podman-compose" -f "$COMPOSE" config
    result "podman-compose config loads compose.yaml + compose.demo.yaml" \
        timeout 60 "$CT_VENV/bin/podman-compose" -f "$COMPOSE" -f "$COMPOSE_DEMO" config
else
    echo "SKIP  podman-compose config (podman not installed)"
fi

# cross_references K8S_DIR COMPOSE_FILE: the checks schemas cannot see; prints what is wrong, exits non-zero.
cross_references() {
"$PY" - "$1" "$2" <<'PY'
import pathlib, sys, urllib.parse
import yaml

k8s, compose_path = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
errors = []
def need(cond, msg):
    if not cond:
        errors.append(msg)

docs = {}
for path in sorted(k8s.glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        if doc:
            docs[(doc["kind"], doc["metadata"]["name"] if "metadata" in doc else path.name)] = (path.name, doc)

kust = next((d for (k, _), (_, d) in docs.items() if k == "Kustomization"), None)
need(kust is not None, "no kustomization.yaml")
files = {p.name for p in k8s.glob("*.yaml")} - {"kustomization.yaml"}
if kust:
    listed = set(kust.get("resources", []))
    need(listed == files, f"kustomization resources {sorted(listed)} != files {sorted(files)}")

def one(kind):
    found = [d for (k, _), (_, d) in docs.items() if k == kind]
    need(len(found) == 1, f"expected one {kind}, found {len(found)}")
    return found[0] if found else {}

dep, svc, hpa, cm = one("Deployment"), one("Service"), one("HorizontalPodAutoscaler"), one("ConfigMap")
pdb = one("PodDisruptionBudget")
pod_labels = dep["spec"]["template"]["metadata"]["labels"]
match = dep["spec"]["selector"]["matchLabels"]
need(match.items() <= pod_labels.items(), "Deployment selector does not match its pod labels")
need(svc["spec"]["selector"].items() <= pod_labels.items(), "Service selects no Deployment pod")
need(pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items(), "PDB selects no Deployment pod")
ref = hpa["spec"]["scaleTargetRef"]
need((ref["kind"], ref["name"]) == ("Deployment", dep["metadata"]["name"]), "HPA does not target the Deployment")
need(hpa["spec"]["minReplicas"] >= 2, "HPA minReplicas < 2: one pod is a single point of failure")

pod = dep["spec"]["template"]["spec"]
c = pod["containers"][0]
ports = {p.get("name"): p["containerPort"] for p in c["ports"]}
need(ports.get("http") == 8080, "container port 'http' is not 8080 (the image listens on 8080)")
need(svc["spec"]["ports"][0]["targetPort"] in ("http", 8080), "Service targetPort is not the http port")
for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
    get = c.get(probe, {}).get("httpGet", {})
    need(get.get("path") == path and get.get("port") in ("http", 8080), f"{probe} is not GET {path} on http")
cms = [e["configMapRef"]["name"] for e in c.get("envFrom", []) if "configMapRef" in e]
need(cm["metadata"]["name"] in cms, "Deployment does not read the ConfigMap")
need(all(k.startswith("PETSPOT_") for k in cm["data"]), "ConfigMap keys should be PETSPOT_* settings")
need("HOST" not in cm["data"] and "PORT" not in cm["data"], "HOST/PORT belong to the image (probes use 8080)")
need("resources" in c and {"requests", "limits"} <= c["resources"].keys(), "no resource requests/limits")
need("cpu" in c["resources"]["requests"], "no CPU request: the HPA's CPU utilization is undefined")
sc, psc = c.get("securityContext", {}), pod.get("securityContext", {})
need(psc.get("runAsNonRoot") or sc.get("runAsNonRoot"), "runAsNonRoot not set")
need(sc.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem not set")
need(sc.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation not false")

compose = yaml.safe_load(compose_path.read_text())
web = compose["services"]["web"]
need(web["environment"].get("PETSPOT_UPSTREAM_URL") == "http://backend:3000", "compose web is not wired to backend:3000")
need("backend" in compose["services"], "compose has no backend service")
need(web.get("healthcheck", {}).get("test") == ["CMD", "petspot-web", "healthcheck"], "compose web healthcheck")


# Several replicas share one write store (deploy/README.md "Scaling out"): without a database URL each
# replica would keep submissions, kept photos and limits to itself (duplicate reports, limits x replicas).
env = {e["name"]: e for e in c.get("env", [])}
db = env.get("PETSPOT_DATABASE_URL")
if max(hpa["spec"].get("maxReplicas", 1), hpa["spec"].get("minReplicas", 1), dep["spec"].get("replicas", 1)) > 1:
    need(db is not None or "PETSPOT_DATABASE_URL" in cm.get("data", {}),
         "the HPA allows more than one replica but no PETSPOT_DATABASE_URL is configured (deploy/README.md \"Scaling out\")")
need("PETSPOT_DATABASE_URL" not in cm.get("data", {}), "PETSPOT_DATABASE_URL holds a password: take it from a Secret, not the ConfigMap")
if db is not None:
    ref = db.get("valueFrom", {}).get("secretKeyRef")
    need(ref is not None and ref.get("name") and ref.get("key"), "PETSPOT_DATABASE_URL must come from a Secret (secretKeyRef)")
need("db" in compose["services"], "compose has no db service (the shared write store)")
need(str(web["environment"].get("PETSPOT_DATABASE_URL", "")).startswith("postgres"), "compose web has no PETSPOT_DATABASE_URL")
need("db" in (web.get("depends_on") or {}), "compose web does not depend on db")

# Alert mails (deploy/README.md "Alert mails"): the relay's URL holds its password, so a Secret; optional,
# since a cluster without a relay must still start the pods (their mails then stay in a Maildir).
need("PETSPOT_SMTP_URL" not in cm.get("data", {}),
     "PETSPOT_SMTP_URL holds the relay's password: take it from a Secret, not the ConfigMap")
smtp = env.get("PETSPOT_SMTP_URL")
if smtp is not None:
    ref = (smtp.get("valueFrom") or {}).get("secretKeyRef")
    need(ref is not None and ref.get("name") and ref.get("key"), "PETSPOT_SMTP_URL must come from a Secret (secretKeyRef)")
    need(ref is None or ref.get("optional") is True,
         "PETSPOT_SMTP_URL's secretKeyRef must be optional: the manifests must apply without a relay")
# The server refuses a DKIM selector without a key file or the reverse: both from the one Secret holding the
# key, which must be mounted where its key-file entry (the example's value) points.
dkim = {n: env.get(n) for n in ("PETSPOT_DKIM_SELECTOR", "PETSPOT_DKIM_KEY")}
need(not ({"PETSPOT_DKIM_SELECTOR", "PETSPOT_DKIM_KEY"} & cm.get("data", {}).keys()),
     "PETSPOT_DKIM_* in the ConfigMap: take them from the Secret that holds the key, so they come as a pair")
if any(dkim.values()):
    refs = {n: ((e or {}).get("valueFrom") or {}).get("secretKeyRef") or {} for n, e in dkim.items()}
    names = {r.get("name") for r in refs.values()}
    need(len(names) == 1 and None not in names,
         "PETSPOT_DKIM_SELECTOR and PETSPOT_DKIM_KEY must come from one Secret (the server refuses one without the other)")
    secret = next(iter(names))
    vols = {v["name"]: v["secret"] for v in pod.get("volumes", []) if (v.get("secret") or {}).get("secretName") == secret}
    mounts = [m for m in c.get("volumeMounts", []) if m["name"] in vols]
    need(bool(mounts), f"the DKIM Secret {secret} is not mounted: PETSPOT_DKIM_KEY would name no file")
    examples = []
    for path in sorted((k8s / "examples").glob("*.yaml")):
        examples += [d for d in yaml.safe_load_all(path.read_text()) if d and d.get("kind") == "Secret"]
    example = next((d for d in examples if d["metadata"]["name"] == secret), None)
    if example is not None and mounts:
        values = {**(example.get("data") or {}), **(example.get("stringData") or {})}
        files = set()
        for m in mounts:
            items = vols[m["name"]].get("items") or [{"key": k, "path": k} for k in values]
            files |= {m["mountPath"].rstrip("/") + "/" + i["path"] for i in items}
        key_ref = refs["PETSPOT_DKIM_KEY"].get("key")
        need(values.get(key_ref) in files,
             f"examples: {secret} {key_ref} = {values.get(key_ref)!r} is not a file the Deployment mounts {sorted(files)}")
# compose's mail sink: it offers no STARTTLS, and a host that is not loopback requires TLS by default.
need("mail" in compose["services"], "compose has no mail service (the sink of the alert mails)")
smtp_url = str(web["environment"].get("PETSPOT_SMTP_URL") or "")
smtp_host = urllib.parse.urlsplit(smtp_url).hostname
need(smtp_host in compose["services"], f"compose web's PETSPOT_SMTP_URL names no compose service ({smtp_host})")
if smtp_host == "mail":
    need(web["environment"].get("PETSPOT_SMTP_TLS") == "none", "compose web must send to the mail sink with PETSPOT_SMTP_TLS=none")
    need("mail" in (web.get("depends_on") or {}), "compose web does not depend on mail")

if errors:
    print("\n".join(errors))
    sys.exit(1)
print("ok")
PY
}

result "cross-references between the manifests" cross_references "$K8S_DIR" "$COMPOSE"

# The rules above must also fail when they should: copies of deploy/ with one fault each.
# mutated NAME PYTHON: copies deploy/ to a temporary folder, applies PYTHON (k8s = that folder's k8s/,
# compose = its compose.yaml, yaml loaded) and succeeds when cross_references then FAILS with NAME's message.
mutated() {
    local expect=$1 code=$2 tmp out
    tmp=$(mktemp -d)
    cp -r deploy "$tmp/deploy"
    "$PY" - "$tmp/deploy" "$code" <<'PY' || { rm -rf "$tmp"; return 1; }
import pathlib, sys, yaml
root = pathlib.Path(sys.argv[1]); k8s = root / "k8s"; compose = root / "compose.yaml"
def edit(path, change):
    doc = yaml.safe_load(path.read_text()); change(doc); path.write_text(yaml.safe_dump(doc, sort_keys=False))
exec(sys.argv[2])
PY
    if out=$(cross_references "$tmp/deploy/k8s" "$tmp/deploy/compose.yaml" 2>&1); then
        echo "passed, but should fail with: $expect"; rm -rf "$tmp"; return 1
    fi
    rm -rf "$tmp"
    grep -qF "$expect" <<<"$out" || { echo "failed, but not with '$expect': $out"; return 1; }
    echo "refused: $expect"
}
no_env='edit(k8s / "deployment.yaml", lambda d: d["spec"]["template"]["spec"]["containers"][0].pop("env"))'
result "negative: several replicas without a database URL are refused" \
    mutated "no PETSPOT_DATABASE_URL is configured" "$no_env"
in_configmap='edit(k8s / "configmap.yaml", lambda d: d["data"].update(PETSPOT_DATABASE_URL="postgres://u:p@db/petspot"))'
result "negative: a database URL in the ConfigMap is refused" \
    mutated "take it from a Secret" "$no_env; $in_configmap"
plain_value='edit(k8s / "deployment.yaml", lambda d: d["spec"]["template"]["spec"]["containers"][0]["env"].__setitem__(
    0, {"name": "PETSPOT_DATABASE_URL", "value": "postgres://u:p@db/petspot"}))'
result "negative: a database URL written into the Deployment is refused" \
    mutated "must come from a Secret" "$plain_value"
no_compose_db='edit(compose, lambda d: d["services"]["web"]["environment"].pop("PETSPOT_DATABASE_URL"))'
result "negative: compose web without a database URL is refused" \
    mutated "compose web has no PETSPOT_DATABASE_URL" "$no_compose_db"

smtp_env='def smtp_env(d, change):
    env = d["spec"]["template"]["spec"]["containers"][0]["env"]
    change(next(e for e in env if e["name"] == "PETSPOT_SMTP_URL"))'
smtp_in_configmap='edit(k8s / "configmap.yaml", lambda d: d["data"].update(PETSPOT_SMTP_URL="smtp://u:p@relay:587"))'
result "negative: an SMTP URL in the ConfigMap is refused" \
    mutated "take it from a Secret, not the ConfigMap" "$smtp_in_configmap"
smtp_required="$smtp_env"'
edit(k8s / "deployment.yaml", lambda d: smtp_env(d, lambda e: e["valueFrom"]["secretKeyRef"].pop("optional")))'
result "negative: a required SMTP Secret is refused" \
    mutated "must be optional" "$smtp_required"
dkim_path='edit(k8s / "examples" / "dkim-secret.yaml", lambda d: d["stringData"].update({"key-file": "/etc/dkim.pem"}))'
result "negative: a DKIM key-file that is not the mounted file is refused" \
    mutated "is not a file the Deployment mounts" "$dkim_path"
compose_smtp='edit(compose, lambda d: d["services"]["web"]["environment"].update(PETSPOT_SMTP_URL="smtp://mailer:2525"))'
result "negative: compose web sending to no compose service is refused" \
    mutated "names no compose service" "$compose_smtp"

echo "validate-manifests: $PASSED passed, $FAILED failed ($(ct_since "$T0") s)"
[ "$FAILED" -eq 0 ]
