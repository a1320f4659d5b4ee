"""Where this machine is on the local network: the address the phones at a table open.

``flask --app app serve`` prints it when it starts, and the share panel offers it to a page
opened as ``127.0.0.1`` or ``localhost`` (whose links work on this computer alone).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network (the home Wi-Fi), best guess first.

    Asks the system which address it would send from (a UDP socket sends nothing when it
    connects), then the addresses of the host name; loopback and link-local are left out.
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in usable:
            usable.append(address)
    return usable


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a host name or address, without port) names this machine only:
    ``localhost``, ``127.0.0.1`` and the rest of 127.0.0.0/8, ``::1``."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
