"""A loopback adb server whose devices are virtual phones, so adbutils and the `adb` tool reach them unchanged.

It speaks the host side of the adb protocol (the "smart socket" requests a client sends to port 5037):
device lists, features, transport selection, and on a selected phone `shell:`, `shell,v2:`, `exec:`,
`abb_exec:` and `sync:`. One thread per connection; every phone operation runs under that phone's lock.

Faults happen for real, for the fault tests: `unplug(serial)` takes a phone away as a pulled cable does (its open
connections break, adb no longer lists it) and `plug(phone)` brings it back; `cut_next(serial, program, after)`
makes the next command running `program` on that phone send `after` bytes of its reply and then drop the
connection (a cable pulled mid-screenshot or mid-dump), unplugging the phone too unless told otherwise.
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from annotator.demo.phone.adb_faults import Cut, drop
from annotator.demo.phone.adb_sync import SyncSession
from annotator.demo.phone.adb_wire import ClientGone, ProtocolError, finish, read_request, send_fail, send_okay
from annotator.demo.phone.shell import run_argv, run_shell

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

ADB_SERVER_VERSION = 41  # what the platform-tools `adb` expects; another number makes it restart the server
# What the phones offer. The sendrecv_v2 family (brotli/lz4/zstd compressed push and pull) is left out on
# purpose: advertising it would make `adb push/pull` compress with codecs the standard library lacks.
FEATURES = (
    "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,fixed_push_symlink_timestamp,abb_exec,"
    "remount_shell,track_app,openscreen_mdns,push_sync"
)
SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT = 1, 2, 3
SHELL_CHUNK = 64 * 1024
ANY_TRANSPORT = ("any", "usb", "local")
POLL_SECONDS = 0.05  # how soon the accept loop notices close()


class NoDevice(Exception):
    """The request names a phone this server does not have; the message is adb's wording."""


class VirtualAdbServer:
    """Serve `phones` (distinct serials) on host:port; port 0 picks a free one, read it from `.port`."""

    def __init__(self, phones: Sequence[VirtualPhone], host: str = "127.0.0.1", port: int = 0) -> None:
        serials = [phone.serial for phone in phones]
        if len(set(serials)) != len(serials):
            raise ValueError(f"each virtual phone needs its own serial, got {serials}")
        self._phones = {phone.serial: phone for phone in phones}
        self._transport_ids = {serial: index + 1 for index, serial in enumerate(serials)}
        self._mtime = int(time.time())
        self._connections: dict[socket.socket, str | None] = {}  # open connections, and the phone each talks to
        self._connections_lock = threading.Lock()
        self._cuts: dict[str, Cut] = {}
        self._tcp = _TcpServer((host, port), self)
        self._thread: threading.Thread | None = None
        self._serving = False
        self._closed = False

    # Lifecycle

    @property
    def host(self) -> str:
        return str(self._tcp.server_address[0])

    @property
    def port(self) -> int:
        return int(self._tcp.server_address[1])

    @property
    def serials(self) -> list[str]:
        return list(self._phones)

    def start(self) -> VirtualAdbServer:
        """Serve from a background thread and return at once."""
        self._serving = True
        self._thread = threading.Thread(
            target=self._tcp.serve_forever, args=(POLL_SECONDS,), name=f"virtual-adb-{self.port}", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until Ctrl-C (KeyboardInterrupt), then close."""
        self._serving = True
        try:
            self._tcp.serve_forever(POLL_SECONDS)
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def close(self) -> None:
        """Stop accepting, end every open connection and release the port; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._serving:
            self._tcp.shutdown()
        self._tcp.server_close()
        with self._connections_lock:
            for sock in list(self._connections):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> VirtualAdbServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Faults

    def unplug(self, serial: str) -> VirtualPhone:
        """Take the phone away as a pulled cable does: adb stops listing it, its open connections break."""
        with self._connections_lock:
            phone = self._phones.pop(serial)
            self._cuts.pop(serial, None)
            cut_off = [sock for sock, bound in self._connections.items() if bound == serial]
        for sock in cut_off:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return phone

    def plug(self, phone: VirtualPhone) -> None:
        """Connect a phone (again): adb lists it, with the transport id it had."""
        with self._connections_lock:
            self._phones[phone.serial] = phone
            self._transport_ids.setdefault(phone.serial, max(self._transport_ids.values(), default=0) + 1)

    def cut_next(self, serial: str, program: str, after: int, *, unplug: bool = True, skip: int = 0) -> None:
        """The next command running `program` (e.g. `screencap`, `uiautomator`) on the phone, after `skip` of them,
        sends `after` bytes of its reply, then the connection drops; with `unplug` the phone is gone too."""
        with self._connections_lock:
            self._cuts[serial] = Cut(program, after, unplug, skip)

    def take_cut(self, serial: str, command: str) -> Cut | None:
        """The cut waiting for this command on the phone, taken (it happens once)."""
        with self._connections_lock:
            cut = self._cuts.get(serial)
            if cut is None or not cut.matches(command):
                return None
            if cut.skip:
                self._cuts[serial] = replace(cut, skip=cut.skip - 1)
                return None
            return self._cuts.pop(serial)

    # What connections use

    def track(self, sock: socket.socket, open_: bool, serial: str | None = None) -> None:
        with self._connections_lock:
            if open_:
                self._connections[sock] = serial
            else:
                self._connections.pop(sock, None)

    def select(self, how: str) -> VirtualPhone:
        """The phone a transport request names: `serial:X`, `id:N`, or any/usb/local when there is one."""
        kind, _, value = how.partition(":")
        if kind == "serial" and value in self._phones:
            return self._phones[value]
        if kind == "serial":
            raise NoDevice(f"device '{value}' not found")
        if kind == "id":
            for serial, transport_id in list(self._transport_ids.items()):
                if str(transport_id) == value and serial in self._phones:
                    return self._phones[serial]
            raise NoDevice(f"no device with transport id '{value}'")
        if kind in ANY_TRANSPORT:
            if len(self._phones) == 1:
                return next(iter(self._phones.values()))
            raise NoDevice("more than one device/emulator" if self._phones else "no devices/emulators found")
        raise NoDevice(f"unknown transport '{how}'")

    def transport_id(self, phone: VirtualPhone) -> int:
        return self._transport_ids[phone.serial]

    def device_list(self, long: bool) -> str:
        lines = []
        for serial, phone in list(self._phones.items()):  # a copy: a phone may be unplugged meanwhile
            if not long:
                lines.append(f"{serial}\tdevice\n")
                continue
            props = phone.props
            model = props.get("ro.product.model", phone.model).replace(" ", "_")
            lines.append(
                f"{serial:<22} device product:{props.get('ro.product.name', 'virtual')} model:{model} "
                f"device:{props.get('ro.product.device', 'virtual')} transport_id:{self._transport_ids[serial]}\n"
            )
        return "".join(lines)

    @property
    def mtime(self) -> int:
        return self._mtime


class _TcpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False
    request_queue_size = 128  # the default 5 makes bursts of parallel clients wait for TCP retries

    def __init__(self, address: tuple[str, int], adb: VirtualAdbServer) -> None:
        self.adb = adb
        super().__init__(address, _Connection)


class _Connection(socketserver.BaseRequestHandler):
    """One client connection: a host request, and after a transport switch one device request."""

    server: _TcpServer
    request: socket.socket

    def handle(self) -> None:
        adb, sock = self.server.adb, self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # replies go out in small writes: no Nagle wait
        adb.track(sock, True)
        try:
            self._serve(adb, sock)
        except (ClientGone, OSError):
            return  # the client went away (or the server is closing): nothing left to answer
        except ProtocolError as error:
            self._fail_quietly(sock, str(error))
        finally:
            adb.track(sock, False)
        finish(sock)

    @staticmethod
    def _fail_quietly(sock: socket.socket, message: str) -> None:
        with contextlib.suppress(OSError):
            send_fail(sock, message)

    def _serve(self, adb: VirtualAdbServer, sock: socket.socket) -> None:
        request = read_request(sock)
        try:
            phone = host_request(adb, sock, request)
        except NoDevice as error:
            send_fail(sock, str(error))
            return
        if phone is not None:
            adb.track(sock, True, phone.serial)  # unplugging the phone breaks this connection
            device_request(adb, sock, phone, read_request(sock))


def host_request(adb: VirtualAdbServer, sock: socket.socket, request: str) -> VirtualPhone | None:
    """Answer a request to the server; returns the phone when the connection now talks to it."""
    how = transport_target(request)
    if how is not None:
        phone = adb.select(how)
        tport = request.startswith("host:tport:")
        sock.sendall(b"OKAY" + (adb.transport_id(phone).to_bytes(8, "little") if tport else b""))
        return phone
    prefix, command = split_host_prefix(adb, request)
    if prefix is not None:
        serve_device_query(adb, sock, adb.select(prefix), command)
        return None
    serve_server_query(adb, sock, request)
    return None


def transport_target(request: str) -> str | None:
    """What a transport switch names (`serial:X`, `id:N`, `any`, `usb`, `local`), or None for other requests."""
    rest = request.removeprefix("host:")
    if rest in ("transport-any", "transport-usb", "transport-local"):
        return rest.removeprefix("transport-")
    if rest.startswith("transport-id:"):
        return "id:" + rest.removeprefix("transport-id:")
    if rest.startswith("transport:"):
        return "serial:" + rest.removeprefix("transport:")
    if rest.startswith("tport:"):
        return rest.removeprefix("tport:")  # serial:X, any, usb or local
    return None


def split_host_prefix(adb: VirtualAdbServer, request: str) -> tuple[str | None, str]:
    """`host-serial:<serial>:<cmd>` and friends -> ("serial:<serial>", cmd); serials may contain colons."""
    if request.startswith("host-serial:"):
        rest = request.removeprefix("host-serial:")
        for serial in adb.serials:
            if rest.startswith(serial + ":"):
                return f"serial:{serial}", rest[len(serial) + 1 :]
        parts = rest.split(":")
        width = 2 if len(parts) > 2 and parts[1].isdigit() else 1  # an unknown host:port serial
        return "serial:" + ":".join(parts[:width]), ":".join(parts[width:])
    if request.startswith("host-transport-id:"):
        transport_id, _, command = request.removeprefix("host-transport-id:").partition(":")
        return f"id:{transport_id}", command
    for kind in ("usb", "local"):
        if request.startswith(f"host-{kind}:"):
            return kind, request.removeprefix(f"host-{kind}:")
    if request.startswith(("host:features", "host:get-", "host:wait-for-")):
        return "any", request.removeprefix("host:")
    return None, request


def serve_device_query(adb: VirtualAdbServer, sock: socket.socket, phone: VirtualPhone, command: str) -> None:
    """Questions the server answers about one phone without talking to it."""
    answers = {
        "features": FEATURES,
        "get-state": "device",
        "get-serialno": phone.serial,
        "get-devpath": f"virtual:{phone.serial}",
        "list-forward": "",
    }
    if command in answers:
        send_okay(sock, answers[command])
    elif command.startswith("wait-for-") and command.endswith(("-device", "-any")):
        sock.sendall(b"OKAYOKAY")  # the phone is there already: accepted, then done
    elif command.startswith(("forward:", "killforward")):
        send_fail(sock, "port forwarding is not supported by the virtual phone")
    else:
        send_fail(sock, f"unsupported device query '{command}' for the virtual phone")


def serve_server_query(adb: VirtualAdbServer, sock: socket.socket, request: str) -> None:
    if request == "host:version":
        send_okay(sock, f"{ADB_SERVER_VERSION:04x}")
    elif request in ("host:devices", "host:devices-l"):
        send_okay(sock, adb.device_list(long=request.endswith("-l")))
    elif request == "host:host-features":
        send_okay(sock, FEATURES)
    elif request in ("host:track-devices", "host:track-devices-l"):
        send_okay(sock, adb.device_list(long=request.endswith("-l")))
        while sock.recv(4096):  # the list never changes; hold the line until the client hangs up
            pass
    elif request == "host:list-forward":
        send_okay(sock, "")
    elif request.startswith("host:connect:"):
        address = request.removeprefix("host:connect:")
        send_okay(sock, f"failed to connect to '{address}': this adb server only serves its virtual phones")
    elif request.startswith("host:disconnect:"):
        send_fail(sock, f"no such device '{request.removeprefix('host:disconnect:')}'")
    elif request == "host:kill":
        send_fail(sock, "the virtual phones' adb server stops with the program that started it")
    elif request.startswith("host"):
        send_fail(sock, f"unknown host service '{request}'")
    else:
        send_fail(sock, f"no device selected for '{request}': send host:transport:<serial> first")


def device_request(adb: VirtualAdbServer, sock: socket.socket, phone: VirtualPhone, request: str) -> None:
    """A service on the phone itself, as adbd would run it."""
    service, _, argument = request.partition(":")
    name, *options = service.split(",")
    if name == "shell" and argument.strip():
        result = run_shell(phone, argument)
        send_okay(sock)
        reply = shell_v2_packets(result.stdout, result.stderr, result.exit_code) if "v2" in options else result.output
        cut = adb.take_cut(phone.serial, argument)
        if cut is not None:
            sock.sendall(reply[: cut.after])
            drop(sock, cut, phone.serial, len(reply), adb.unplug)
        sock.sendall(reply)
    elif name == "shell":
        send_fail(sock, "interactive shells are not supported by the virtual phone; pass a command")
    elif name == "exec":
        send_okay(sock)
        sock.sendall(run_shell(phone, argument).output)
    elif name in ("abb", "abb_exec"):  # Android Binder Bridge: `cmd <service>` with NUL-separated arguments
        result = run_argv(phone, ["cmd", *argument.split("\0")])
        send_okay(sock)
        sock.sendall(
            shell_v2_packets(result.stdout, result.stderr, result.exit_code) if name == "abb" else result.output
        )
    elif request == "sync:":
        send_okay(sock)
        SyncSession(sock, phone, adb.mtime).serve()
    elif request in ("root:", "unroot:"):
        send_okay(sock)
        sock.sendall(b"adbd cannot run as root in production builds\n")
    else:
        send_fail(sock, f"unsupported service '{request}' on the virtual phone")


def shell_v2_packets(stdout: bytes, stderr: bytes, exit_code: int) -> bytes:
    """The shell protocol: [id:1][length:4 LE][payload] packets, stdout, then stderr, then the exit code."""
    out = bytearray()
    for packet_id, data in ((SHELL_STDOUT, stdout), (SHELL_STDERR, stderr)):
        for start in range(0, len(data), SHELL_CHUNK):
            chunk = data[start : start + SHELL_CHUNK]
            out += bytes([packet_id]) + len(chunk).to_bytes(4, "little") + chunk
    out += bytes([SHELL_EXIT]) + (1).to_bytes(4, "little") + bytes([exit_code & 0xFF])
    return bytes(out)
