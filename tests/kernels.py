"""The python3 kernels the tests run notebooks in, talking over Unix sockets where the system has them.

Over TCP, jupyter_client picks five free ports and the kernel binds them about a second later, once it has
started: a port that another test's server took in between kills the kernel at its start ("Address already
in use", seen with two workers). A socket file of the kernel's own cannot be taken.
"""

import os
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from traitlets import default


class UnixSocketKernel(AsyncKernelManager):
    @default("transport")
    def _unix_sockets(self):
        return "ipc" if os.name == "posix" else "tcp"

    @default("ip")
    def _socket_files(self):
        # The default, "kernel-ipc" in the working folder, would be shared by two kernels started there.
        if os.name != "posix":
            return "127.0.0.1"
        return os.path.join(tempfile.gettempdir(), f"kernel-{uuid.uuid4().hex[:12]}")


def client(notebook, folder, timeout):
    """An nbclient for `notebook` whose kernel starts in `folder`; cells that run longer than `timeout` s fail."""
    return NotebookClient(
        notebook,
        kernel_name="python3",
        kernel_manager_class=UnixSocketKernel,
        timeout=timeout,
        resources={"metadata": {"path": str(folder)}},
    )
