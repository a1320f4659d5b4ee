"""Reaching the app at home: `flask --app app serve` says the address the phones open."""

from __future__ import annotations

import ipaddress

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from scorekeeper.web.site import cli


def test_local_addresses_leave_out_loopback_and_link_local():
    for address in cli.local_addresses():
        ip = ipaddress.ip_address(address)
        assert not ip.is_loopback and not ip.is_link_local


def terminal_qr(text: str) -> str:
    """Decode a QR code printed with half-block characters (two rows of modules a line)."""
    lines = [line for line in text.splitlines() if line and set(line) <= set("█▀▄ ")]
    width = max(len(line) for line in lines)
    scale = 8
    image = Image.new("L", (width * scale, len(lines) * 2 * scale), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            # In segno's compact terminal output a light module is drawn, a dark one is blank.
            top = char in "█▀"
            bottom = char in "█▄"
            for half, light in ((0, top), (1, bottom)):
                if not light:
                    y = (row * 2 + half) * scale
                    draw.rectangle([col * scale, y, col * scale + scale - 1, y + scale - 1], 0)
    found = zxingcpp.read_barcodes(image)
    assert found, "the printed QR code does not scan"
    return found[0].text


def test_serving_on_the_local_network_prints_every_address_and_a_qr_code(monkeypatch, capsys):
    monkeypatch.setattr(cli, "local_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    cli.announce("0.0.0.0", 5000, show_qr=True)
    printed = capsys.readouterr().out
    assert "http://192.168.1.23:5000" in printed and "http://10.0.0.5:5000" in printed
    assert terminal_qr(printed) == "http://192.168.1.23:5000"


@pytest.mark.parametrize("addresses", [["192.168.1.23"], []])
def test_without_a_terminal_or_on_one_machine_no_qr_code(monkeypatch, capsys, addresses):
    monkeypatch.setattr(cli, "local_addresses", lambda: addresses)
    cli.announce("0.0.0.0", 5000, show_qr=False)
    printed = capsys.readouterr().out
    assert "█" not in printed
    assert ("192.168.1.23:5000" in printed) == bool(addresses)
    cli.announce("127.0.0.1", 5000, show_qr=True)
    assert "http://127.0.0.1:5000" in capsys.readouterr().out
