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
#      port, and the pod cannot run as root or write its root filesystem.
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

for v in "${K8S_VERSIONS[@]}"; do
    result "kubernetes-validate --strict (Kubernetes $v): ${MANIFESTS[*]##*/}" \
        "$CT_VENV/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$v" "${MANIFESTS[@]}"
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

result "cross-references between the manifests" "$PY" - "$K8S_DIR" "$COMPOSE" <<'PY'
import pathlib, sys
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

if errors:
    print("\n".join(errors))
    sys.exit(1)
print("ok")
PY

echo "validate-manifests: $PASSED passed, $FAILED failed ($(ct_since "$T0") s)"
[ "$FAILED" -eq 0 ]
