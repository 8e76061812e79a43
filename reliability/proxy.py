"""nginx in front of the stack's replicas: the repository's own configuration (deploy/nginx/catan.conf.template),
filled in as nginx's image fills it, under a main file of the stack's own (no daemon, every path in the stack's
folder), so nginx runs as a child process that the stack stops by its pid.
"""
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "catan.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

MAIN = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/catan.conf;
}}
"""


def fill(template: str, values: dict[str, str]) -> str:
    """`${NAME}` replaced by its value, as envsubst does with the names it is given; nginx's own `$name` stays."""
    def value(match: re.Match) -> str:
        if match.group(1) not in values:
            raise KeyError(f"{TEMPLATE.name} needs {match.group(1)}")
        return values[match.group(1)]
    return re.sub(r"\$\{([A-Z_]+)\}", value, template)


def configure(folder: Path, port: int, server_name: str, upstreams: list[int], certificate: Path, key: Path) -> Path:
    """The stack's nginx.conf in `folder`: TLS on 127.0.0.1:`port` for `server_name`, the replicas on `upstreams`."""
    folder.mkdir(parents=True, exist_ok=True)
    for temporary in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "cache"):
        (folder / temporary).mkdir(exist_ok=True)
    (folder / "upstreams.conf").write_text("".join(
        f"server 127.0.0.1:{upstream} max_fails=1 fail_timeout=2s;\n" for upstream in upstreams))
    (folder / "catan.conf").write_text(fill(TEMPLATE.read_text(), {
        "NGINX_CACHE_DIR": str(folder / "cache"), "NGINX_UPSTREAMS": str(folder / "upstreams.conf"),
        "NGINX_LISTEN": f"127.0.0.1:{port}", "NGINX_SERVER_NAME": server_name,
        "NGINX_CERTIFICATE": str(certificate), "NGINX_CERTIFICATE_KEY": str(key)}))
    main = folder / "nginx.conf"
    main.write_text(MAIN.format(folder=folder))
    return main


def start(folder: Path, config: Path, log) -> subprocess.Popen:
    """nginx in the foreground (checked first, so a bad configuration says why)."""
    check = subprocess.run([NGINX, "-t", "-q", "-p", str(folder), "-c", str(config)], capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError(f"nginx refuses its configuration:\n{check.stderr}")
    return subprocess.Popen([NGINX, "-p", str(folder), "-c", str(config)], stdout=log, stderr=subprocess.STDOUT)
