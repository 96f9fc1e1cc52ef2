"""The Kubernetes manifests (deploy/kubernetes) are valid and agree with each
other and with the application.

Every document of a built-in kind is validated strictly (no unknown field)
against the Kubernetes API's schemas for the versions named below, which
kubernetes-validate bundles, so the check needs no cluster and no network.
CloudNativePG's Cluster and Pooler have no schema there: for them this file
checks the apiVersion, the kind and the fields the manifests rely on. A
document of any other kind fails: nothing passes unchecked.

Beyond the schemas: the kustomization lists every manifest; the web pods'
stable names, PULKA_LIVE_NODES and Caddy's upstreams are one list (the hash
of games/live/routing.py is over those names); Caddy itself reads the
Caddyfile; beat never goes through the pooler (its advisory lock needs a
session of its own); liveness never waits on the database.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from functools import cache
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from config.limits import uvicorn_limits

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = ROOT / "deploy" / "kubernetes"
EXAMPLES = MANIFESTS / "examples"
# The oldest Kubernetes the manifests are for, and the newest whose
# schemas kubernetes-validate bundles.
KUBERNETES_VERSIONS = ("1.31", "1.37")
CUSTOM_KINDS = {
    ("postgresql.cnpg.io/v1", "Cluster"),
    ("postgresql.cnpg.io/v1", "Pooler"),
}
CADDY = shutil.which("caddy")


def manifest_files() -> list[Path]:
    files = sorted(MANIFESTS.glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))
    return [path for path in files if path.name != "kustomization.yaml"]


@cache
def documents(path: Path) -> tuple[dict, ...]:
    return tuple(doc for doc in yaml.safe_load_all(path.read_text()) if doc)


def all_documents() -> list[tuple[Path, dict]]:
    return [(path, doc) for path in manifest_files() for doc in documents(path)]


def find(kind: str, name: str) -> dict:
    found = [
        doc
        for _, doc in all_documents()
        if doc["kind"] == kind and doc["metadata"]["name"] == name
    ]
    assert len(found) == 1, f"one {kind} {name}, not {len(found)}"
    return found[0]


def container(workload: dict, name: str) -> dict:
    pod = workload["spec"]["template"]["spec"]
    (found,) = [c for c in pod["containers"] if c["name"] == name]
    return found


def env(container_spec: dict) -> dict[str, dict]:
    return {item["name"]: item for item in container_spec.get("env", [])}


def settings_map() -> dict[str, str]:
    return find("ConfigMap", "pulka-settings")["data"]


def document_ids() -> list[str]:
    return [
        f"{path.relative_to(MANIFESTS)}:{doc['kind']}/{doc['metadata']['name']}"
        for path, doc in all_documents()
    ]


# The custom resources: what the manifests rely on, checked by hand.


def check_custom_resource(doc: dict, clusters: set[str]) -> list[str]:
    """What is wrong with a CloudNativePG Cluster or Pooler, as far as the
    fields the manifests use go (their operator's schema is not bundled)."""
    problems = []
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key not in CUSTOM_KINDS:
        return [f"not a known custom resource: {key}"]
    if not doc.get("metadata", {}).get("name"):
        problems.append("metadata.name is missing")
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return [*problems, "spec is missing"]
    instances = spec.get("instances")
    if not isinstance(instances, int) or isinstance(instances, bool) or instances < 1:
        problems.append(f"spec.instances must be a positive integer: {instances!r}")
    if doc["kind"] == "Cluster":
        size = spec.get("storage", {}).get("size")
        if not isinstance(size, str) or not size:
            problems.append("spec.storage.size is missing")
        database = spec.get("bootstrap", {}).get("initdb", {})
        if not database.get("database") or not database.get("owner"):
            problems.append("spec.bootstrap.initdb needs database and owner")
        for name, value in spec.get("postgresql", {}).get("parameters", {}).items():
            if not isinstance(value, str):
                problems.append(f"parameter {name} must be a string: {value!r}")
    else:
        if spec.get("cluster", {}).get("name") not in clusters:
            problems.append(
                f"spec.cluster.name names no Cluster: {spec.get('cluster')}"
            )
        if spec.get("type") not in ("rw", "ro"):
            problems.append(f"spec.type must be rw or ro: {spec.get('type')!r}")
        pgbouncer = spec.get("pgbouncer", {})
        if pgbouncer.get("poolMode") not in ("session", "transaction"):
            problems.append(f"pgbouncer.poolMode: {pgbouncer.get('poolMode')!r}")
        for name, value in pgbouncer.get("parameters", {}).items():
            if not isinstance(value, str):
                problems.append(f"pgbouncer parameter {name} must be a string")
    return problems


def cluster_names() -> set[str]:
    return {
        doc["metadata"]["name"]
        for _, doc in all_documents()
        if doc["kind"] == "Cluster" and doc["apiVersion"] == "postgresql.cnpg.io/v1"
    }


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize(("path", "doc"), all_documents(), ids=document_ids())
def test_every_document_is_valid(path, doc, version):
    if (doc.get("apiVersion"), doc.get("kind")) in CUSTOM_KINDS:
        assert check_custom_resource(doc, cluster_names()) == []
        return
    # Raises for a document against its schema, and for a kind that has
    # none (SchemaNotFoundError): no document passes unchecked.
    kubernetes_validate.validate(doc, version, strict=True)


def test_a_broken_manifest_is_rejected():
    web = find("StatefulSet", "web")
    kubernetes_validate.validate(web, KUBERNETES_VERSIONS[0], strict=True)

    misspelt = copy.deepcopy(web)
    misspelt["spec"]["replica"] = misspelt["spec"].pop("replicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(misspelt, KUBERNETES_VERSIONS[0], strict=True)

    wrong_type = copy.deepcopy(web)
    wrong_type["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong_type, KUBERNETES_VERSIONS[0], strict=True)

    no_selector = copy.deepcopy(web)
    del no_selector["spec"]["selector"]
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(no_selector, KUBERNETES_VERSIONS[0], strict=True)

    unknown_kind = {"apiVersion": "v1", "kind": "Servcie", "metadata": {"name": "x"}}
    with pytest.raises(kubernetes_validate.SchemaNotFoundError):
        kubernetes_validate.validate(unknown_kind, KUBERNETES_VERSIONS[0], strict=True)


def test_a_broken_custom_resource_is_rejected():
    clusters = cluster_names()
    cluster = find("Cluster", "pulka-db")
    pooler = find("Pooler", "pulka-db-pooler")
    assert check_custom_resource(cluster, clusters) == []
    assert check_custom_resource(pooler, clusters) == []

    no_instances = copy.deepcopy(cluster)
    del no_instances["spec"]["instances"]
    assert check_custom_resource(no_instances, clusters)

    number_parameter = copy.deepcopy(cluster)
    number_parameter["spec"]["postgresql"]["parameters"]["max_connections"] = 200
    assert check_custom_resource(number_parameter, clusters)

    elsewhere = copy.deepcopy(pooler)
    elsewhere["spec"]["cluster"]["name"] = "another-db"
    assert check_custom_resource(elsewhere, clusters)

    statement_mode = copy.deepcopy(pooler)
    statement_mode["spec"]["pgbouncer"]["poolMode"] = "statement"
    assert check_custom_resource(statement_mode, clusters)

    other_version = {**cluster, "apiVersion": "postgresql.cnpg.io/v2"}
    assert check_custom_resource(other_version, clusters)


def test_the_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((MANIFESTS / "kustomization.yaml").read_text())
    listed = kustomization["resources"]
    assert len(listed) == len(set(listed))
    on_disk = {path.name for path in MANIFESTS.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(listed) == on_disk
    # The generated ConfigMaps' files are there too, and nothing else is.
    generated = {
        file
        for generator in kustomization["configMapGenerator"]
        for file in generator["files"]
    }
    assert generated == {"Caddyfile"}
    assert {path.name for path in MANIFESTS.iterdir() if path.is_file()} == (
        on_disk | generated | {"kustomization.yaml"}
    )
    # The Secret is made by hand, once, and never applied over.
    assert not any(
        doc["kind"] == "Secret"
        for path in listed
        for doc in documents(MANIFESTS / path)
    )
    # Every workload runs in the kustomization's namespace, which it makes.
    assert kustomization["namespace"] == find("Namespace", "pulka")["metadata"]["name"]


def web_pod_names() -> list[str]:
    """Each web pod as its stable DNS name under the headless Service, with
    the port: what Caddy dials and routing.home hashes over."""
    web = find("StatefulSet", "web")
    service = find("Service", web["spec"]["serviceName"])
    assert service["spec"]["clusterIP"] == "None"
    assert service["spec"]["publishNotReadyAddresses"] is True
    assert service["spec"]["selector"] == web["spec"]["selector"]["matchLabels"]
    (port,) = container(web, "web")["ports"]
    name, count = web["metadata"]["name"], web["spec"]["replicas"]
    return [
        f"{name}-{ordinal}.{service['metadata']['name']}:{port['containerPort']}"
        for ordinal in range(count)
    ]


@cache
def caddy_routes() -> list[dict]:
    assert CADDY, "Caddy is needed: apt-get install caddy (make test installs it)"
    adapted = subprocess.run(
        [
            CADDY,
            "adapt",
            "--config",
            str(MANIFESTS / "Caddyfile"),
            "--adapter",
            "caddyfile",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = json.loads(adapted.stdout)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":8080"]
    return server["routes"]


def proxies() -> list[tuple[list, dict]]:
    """Each reverse_proxy handler of the Caddyfile, with its route's matchers."""
    found = []
    for route in caddy_routes():
        for handler in route["handle"]:
            if handler["handler"] == "reverse_proxy":
                found.append((route.get("match", []), handler))
    return found


def test_live_nodes_are_the_web_pods_and_caddys_upstreams():
    nodes = web_pod_names()
    assert nodes == ["web-0.web:8000", "web-1.web:8000", "web-2.web:8000"]
    assert settings_map()["PULKA_LIVE_NODES"].split(",") == nodes

    web_env = env(container(find("StatefulSet", "web"), "web"))
    assert web_env["POD_NAME"]["valueFrom"] == {
        "fieldRef": {"fieldPath": "metadata.name"}
    }
    own = web_env["PULKA_LIVE_NODE"]["value"]
    for node in nodes:
        pod = node.split(".")[0]
        assert own.replace("$(POD_NAME)", pod) == node

    handlers = proxies()
    assert len(handlers) == 2
    for _, handler in handlers:
        assert sorted(upstream["dial"] for upstream in handler["upstreams"]) == nodes
    game_routes = [h for match, h in handlers if match == [{"path": ["/ws/games/*"]}]]
    (games,) = game_routes
    assert games["load_balancing"]["selection_policy"] == {"policy": "uri_hash"}


def test_caddy_is_the_version_whose_hash_routing_reproduces():
    caddy = container(find("Deployment", "caddy"), "caddy")
    compose = yaml.safe_load((ROOT / "docker" / "compose.yml").read_text())
    assert caddy["image"] == compose["services"]["proxy"]["image"] == "caddy:2.6.2"
    assert caddy["ports"][0]["containerPort"] == 8080
    volume = find("Deployment", "caddy")["spec"]["template"]["spec"]["volumes"][0]
    assert volume["configMap"]["name"] == "caddy-config"


def test_caddy_and_the_web_pods_trust_the_same_proxies():
    trusted = settings_map()["PULKA_TRUSTED_PROXIES"].split(",")
    for _, handler in proxies():
        assert handler["trusted_proxies"] == trusted


def database_url(workload: dict, name: str) -> str:
    return env(container(workload, name))["DATABASE_URL"]["value"]


def test_each_process_reaches_the_database_its_way():
    pooler = find("Pooler", "pulka-db-pooler")
    assert pooler["spec"]["pgbouncer"]["poolMode"] == "transaction"
    through_pooler = "@pulka-db-pooler:5432/pulka"
    primary = "@pulka-db-rw:5432/pulka"
    assert database_url(find("StatefulSet", "web"), "web").endswith(through_pooler)
    for name in ("worker", "reviews", "beat"):
        assert database_url(find("Deployment", name), name).endswith(primary)
    assert database_url(find("Job", "migrate"), "migrate").endswith(primary)
    # Beat: two copies, one connection each and no pool (config/beat.py,
    # scripts/run_platform.py).
    beat = find("Deployment", "beat")
    assert beat["spec"]["replicas"] == 2
    assert env(container(beat, "beat"))["PULKA_DB_POOL_SIZE"]["value"] == "0"
    # The database's name and owner are the ones in the URLs.
    initdb = find("Cluster", "pulka-db")["spec"]["bootstrap"]["initdb"]
    assert (initdb["database"], initdb["owner"]) == ("pulka", "pulka")


def test_every_workload_waits_for_its_migrations():
    for kind, name in [
        ("StatefulSet", "web"),
        ("Deployment", "worker"),
        ("Deployment", "reviews"),
        ("Deployment", "beat"),
    ]:
        pod = find(kind, name)["spec"]["template"]["spec"]
        (wait,) = pod["initContainers"]
        assert "migrate --check" in wait["command"][-1]
        assert wait["image"] == container(find(kind, name), name)["image"]
        assert env(wait)["DATABASE_URL"] == {
            "name": "DATABASE_URL",
            "value": database_url(find(kind, name), name),
        }


def probe_source(probe: dict) -> str:
    command = probe["exec"]["command"]
    assert command[:2] == ["python", "-c"]
    compile(command[2], "probe", "exec")
    return command[2]


def test_liveness_does_not_wait_on_the_database():
    web = container(find("StatefulSet", "web"), "web")
    for probe in ("startupProbe", "livenessProbe"):
        assert web[probe]["httpGet"] == {"path": "/health/live/", "port": 8000}
    assert "/health/" in probe_source(web["readinessProbe"])


def test_the_web_pods_serve_with_the_sites_uvicorn_options():
    command = container(find("StatefulSet", "web"), "web")["command"]
    limits = uvicorn_limits()
    options = []
    while limits:
        option = limits.pop(0)
        if limits and not limits[0].startswith("--"):
            option = f"{option}={limits.pop(0)}"
        options.append(option)
    for option in options:
        assert option in command
    assert "--proxy-headers" not in command


def test_the_images_are_named_once():
    kustomization = yaml.safe_load((MANIFESTS / "kustomization.yaml").read_text())
    (image,) = kustomization["images"]
    application = {
        c["image"]
        for _, doc in all_documents()
        if doc["kind"] in ("StatefulSet", "Deployment", "Job")
        for pod in [doc["spec"]["template"]["spec"]]
        for c in pod.get("initContainers", []) + pod["containers"]
        if c["image"].startswith("pulka")
    }
    assert application == {image["name"]}
