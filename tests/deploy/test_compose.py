"""docker/compose.yml is a valid Compose file, and its web processes' names
are the proxy's upstreams.

Checked by Debian's docker-compose (1.29), which needs no Docker engine for
`config`: it validates the file against the Compose specification's schema
it bundles, fills in the variables and resolves the extension fields, as
`docker compose up` would before starting anything. `make test` installs it
(scripts/system_packages.sh); a machine without it fails here, not skips.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yml"
DOCKER_COMPOSE = shutil.which("docker-compose")
CADDY = shutil.which("caddy")


def compose_config(path: Path, **variables: str) -> subprocess.CompletedProcess:
    assert DOCKER_COMPOSE, (
        "docker-compose is needed: apt-get install docker-compose "
        "(make test installs it)"
    )
    return subprocess.run(
        [DOCKER_COMPOSE, "--file", str(path), "--project-name", "pulka", "config"],
        env={"PATH": os.environ["PATH"], "HOME": str(path.parent), **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_compose_file_is_valid():
    result = compose_config(COMPOSE, SECRET_KEY="compose-config-only")
    assert result.returncode == 0, result.stderr
    config = yaml.safe_load(result.stdout)
    assert set(config["services"]) == {
        "migrate", "web1", "web2", "worker", "reviews", "beat", "proxy",
        "postgres", "redis",
    }  # fmt: skip
    beat = config["services"]["beat"]
    assert "--scheduler=config.beat:OneBeatScheduler" in beat["command"]


def test_the_secret_key_is_required():
    result = compose_config(COMPOSE)
    assert result.returncode != 0
    assert "set SECRET_KEY" in result.stderr


def test_a_broken_compose_file_is_rejected(tmp_path):
    (tmp_path / "docker").mkdir()
    original = yaml.safe_load(COMPOSE.read_text())

    misspelt = yaml.safe_load(COMPOSE.read_text())
    misspelt["services"]["worker"]["comand"] = misspelt["services"]["worker"].pop(
        "command"
    )
    wrong_condition = yaml.safe_load(COMPOSE.read_text())
    wrong_condition["services"]["redis"]["healthcheck"]["retries"] = "many"
    for broken in (misspelt, wrong_condition):
        path = tmp_path / "docker" / "compose.yml"
        path.write_text(yaml.safe_dump(broken))
        result = compose_config(path, SECRET_KEY="x")
        assert result.returncode != 0, result.stdout
    # The same file, unbroken, from the same place, passes.
    path.write_text(yaml.safe_dump(original))
    assert compose_config(path, SECRET_KEY="x").returncode == 0


def test_the_web_processes_are_the_proxys_upstreams():
    config = yaml.safe_load(COMPOSE.read_text())
    nodes = config["services"]["web1"]["environment"]["PULKA_LIVE_NODES"].split(",")
    for name in ("web1", "web2"):
        environment = config["services"][name]["environment"]
        assert environment["PULKA_LIVE_NODES"].split(",") == nodes
        assert environment["PULKA_LIVE_NODE"] == f"{name}:8000"
    assert CADDY, "Caddy is needed: apt-get install caddy (make test installs it)"
    adapted = subprocess.run(
        [
            CADDY,
            "adapt",
            "--config",
            str(ROOT / "docker" / "Caddyfile"),
            "--adapter",
            "caddyfile",
        ],
        env={"PATH": os.environ["PATH"], "SITE_ADDRESS": "localhost"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    routes = json.dumps(json.loads(adapted.stdout))
    dials = sorted(
        handler["upstreams"]
        for server in json.loads(adapted.stdout)["apps"]["http"]["servers"].values()
        for route in server["routes"]
        for handler in _handlers(route)
        if handler["handler"] == "reverse_proxy"
    )
    assert len(dials) == 2, routes
    for upstreams in dials:
        assert sorted(upstream["dial"] for upstream in upstreams) == sorted(nodes)


def _handlers(route: dict):
    """Every handler of a route, those of its subroutes included (a site
    block with a host name nests its routes in a subroute)."""
    for handler in route.get("handle", []):
        yield handler
        for inner in handler.get("routes", []):
            yield from _handlers(inner)
