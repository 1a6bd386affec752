"""The small WebSocket client and /proc reader of the load scripts (gui_load.py, serve_load.py):
Python's standard library only, loopback only."""

import base64
import os
import socket
import struct


def proc_fields(pid):
    """The fields of /proc/<pid>/status, as text."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k] = v.strip()
    return out


def frame(text, opcode=0x1):
    """A masked client frame (text by default)."""
    data = text.encode()
    head = bytearray([0x80 | opcode])
    n = len(data)
    if n < 126:
        head.append(0x80 | n)
    elif n < 65536:
        head.append(0x80 | 126)
        head += struct.pack(">H", n)
    else:
        head.append(0x80 | 127)
        head += struct.pack(">Q", n)
    mask = os.urandom(4)
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def connect(port, source=None):
    """Opens /ws on 127.0.0.1:port (from the address `source` if given) as a page of that
    origin would: returns the socket (non-blocking), the HTTP status and what came after the
    response head."""
    address = (source, 0) if source else None
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=address)
    key = base64.b64encode(os.urandom(16)).decode()
    host = f"127.0.0.1:{port}"
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    status = head.split(b" ", 2)[1].decode() if b" " in head else "none"
    rest = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""
    sock.setblocking(False)
    return sock, status, rest


def split_frames(buf):
    """The complete server frames (unmasked) at the start of `buf` as (opcode, payload), and
    what is left."""
    out = []
    while len(buf) >= 2:
        op = buf[0] & 0x0F
        n = buf[1] & 0x7F
        off = 2
        if n == 126:
            if len(buf) < 4:
                break
            n, off = struct.unpack(">H", buf[2:4])[0], 4
        elif n == 127:
            if len(buf) < 10:
                break
            n, off = struct.unpack(">Q", buf[2:10])[0], 10
        if len(buf) < off + n:
            break
        out.append((op, buf[off : off + n]))
        buf = buf[off + n :]
    return out, buf
