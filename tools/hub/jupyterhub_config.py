"""A JupyterHub for a class, on this machine only: the rig `make test-hub` starts.

Everything machine-specific comes from environment variables that
tests/hub_support.py sets: HUB_PORT (the students' address, 127.0.0.1 only),
HUB_API_PORT and HUB_PROXY_API_PORT (internal), HUB_STATE (database, cookie
secret, pid files), HUB_HOMES (one home per student), HUB_STUDENTS (names,
comma-separated), HUB_PASSWORD (the class password), HUB_PROXY (the
configurable-http-proxy executable) and HUB_SINGLEUSER (jupyterhub-singleuser
from the course's environment, where agentlib and nbgitpuller are installed).
With HUB_LOCAL_MODEL_PORT set, the hub also runs the tiny local model as one
service for the whole class, as docs/classroom.md advises.

Deliberately left out: real system users and TLS. SimpleLocalProcessSpawner runs
every student's server as the hub's own user, in a home of its own; that keeps
the test runnable without root, but it gives no isolation, so a real class uses
TLJH (system users) or Zero to JupyterHub (a container per student) instead.
"""

import os
import sys

state, homes = os.environ["HUB_STATE"], os.environ["HUB_HOMES"]

c = get_config()  # noqa: F821 - JupyterHub provides it when it loads this file

c.JupyterHub.bind_url = f"http://127.0.0.1:{os.environ['HUB_PORT']}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{os.environ['HUB_API_PORT']}"
c.JupyterHub.db_url = f"sqlite:///{state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{state}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = f"{state}/jupyterhub.pid"
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every student's server

c.ConfigurableHTTPProxy.command = [os.environ["HUB_PROXY"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['HUB_PROXY_API_PORT']}"
c.ConfigurableHTTPProxy.pid_file = f"{state}/proxy.pid"

# One password for the class, names fixed in advance: what a workshop without accounts needs.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ["HUB_PASSWORD"]
c.Authenticator.allowed_users = set(os.environ["HUB_STUDENTS"].split(","))

c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = f"{homes}/{{username}}"
c.Spawner.cmd = [os.environ["HUB_SINGLEUSER"]]
c.Spawner.default_url = "/lab"
if os.getuid() == 0:  # CI runs as root, and Jupyter refuses root unless told
    c.Spawner.args = ["--ServerApp.allow_root=True"]
# A shared 2-core machine: a first start of JupyterLab can take a while.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# The tiny local model, shared: one server as a hub service, every student's server pointed at it.
# agentlib.extras.local runs llama.cpp's server (xllamacpp) with a cap on every reply, so one runaway
# reply cannot hold the shared server for minutes. Shared by the class, its address carries no secret
# (--secret ""), and a loopback address needs no key, so RealModel() in any notebook uses it as it is.
if os.environ.get("HUB_LOCAL_MODEL_PORT"):
    from agentlib.extras.local import NAME, model_file

    port = os.environ["HUB_LOCAL_MODEL_PORT"]
    c.JupyterHub.services = [
        {
            "name": "local-model",
            "command": [
                sys.executable,
                "-m",
                "agentlib.extras.local",
                "--model",
                str(model_file("en")),
                "--port",
                port,
                "--secret",
                "",
            ],
        }
    ]
    c.Spawner.environment = {"LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "LLM_MODEL": NAME}
