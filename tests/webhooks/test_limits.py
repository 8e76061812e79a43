"""A receiver cannot hold a delivery (issue 33, item 4): one attempt has a deadline in all, however slowly the
receiver drips its answer, and an answer of too many or too large headers is cut off. Real receivers on 127.0.0.1
(`raw_receiver`), the guard's deadline shortened so each test takes a second or two."""
import socket
import time

import pytest

from core import outbound
from webhooks import services
from webhooks.delivery import MAX_ATTEMPTS
from webhooks.models import Delivery, Event
from webhooks.tasks import delivery_task

pytestmark = pytest.mark.django_db

DEADLINE = 1.5
MARGIN = 1.0
"""Scheduling and the test's own work: far less than one more drip would give without the deadline."""


@pytest.fixture
def deadline(monkeypatch):
    monkeypatch.setattr(outbound, "DEADLINE_SECONDS", DEADLINE)
    return DEADLINE


def drip(lines, every=0.2):
    """An answer written one line of `lines()` each `every` seconds until the test is over (40 s at most, as in the
    attack)."""
    def answer(connection, stop):
        for line in lines():
            if stop.wait(every):
                return
            connection.sendall(line)
    return answer


def endless_headers():
    yield b"HTTP/1.1 200 OK\r\n"
    for n in range(200):
        yield f"X-Drip-{n}: {n}\r\n".encode()


def at_once(data: bytes):
    def answer(connection, stop):
        connection.sendall(data)
    return answer


def timed_ping(tournament, organizer, url, capture):
    hook = services.add_webhook(tournament.championship, url, [Event.GAME_PUBLISHED], user=organizer)
    started = time.monotonic()
    with capture(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    elapsed = time.monotonic() - started
    delivery.refresh_from_db()
    return delivery, elapsed


def test_a_receiver_that_drips_its_headers_is_cut_off_at_the_deadline(local, cup, later, deadline, raw_receiver,
                                                                      django_capture_on_commit_callbacks):
    """A header line every 0.2 s never lets a read time out; it held a delivery 40 s, and up to hours."""
    tournament, organizer, _other = cup
    receiver = raw_receiver(drip(endless_headers))
    delivery, elapsed = timed_ping(tournament, organizer, receiver.url, django_capture_on_commit_callbacks)
    assert elapsed < DEADLINE + MARGIN
    assert delivery.status == Delivery.Status.QUEUED and delivery.attempts == 1 and len(later) == 1
    assert delivery.message == f"No answer within {DEADLINE:g} seconds."
    # its last attempt: recorded as failed, with the reason
    Delivery.objects.filter(pk=delivery.pk).update(attempts=MAX_ATTEMPTS - 1)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        delivery_task(delivery.pk)
    assert time.monotonic() - started < DEADLINE + MARGIN
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.FAILED, MAX_ATTEMPTS)
    assert delivery.message == f"No answer within {DEADLINE:g} seconds."
    assert receiver.connections == 2


def test_a_receiver_that_drips_its_body_is_cut_off_at_the_deadline(local, cup, later, deadline, raw_receiver,
                                                                   django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    receiver = raw_receiver(drip(lambda: [b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"] + [b"x"] * 400,
                                 every=0.1))
    delivery, elapsed = timed_ping(tournament, organizer, receiver.url, django_capture_on_commit_callbacks)
    assert elapsed < DEADLINE + MARGIN
    assert delivery.status == Delivery.Status.QUEUED and "No answer within" in delivery.message


def test_a_tls_handshake_dripped_byte_by_byte_is_cut_off_at_the_deadline(local, cup, later, deadline, raw_receiver,
                                                                          django_capture_on_commit_callbacks):
    """The handshake reads under the same deadline: a TLS record announced 16 KB long, sent a byte at a time."""
    def handshake(connection, stop):
        connection.recv(65536)  # the ClientHello
        connection.sendall(b"\x16\x03\x03\x40\x00")
        while not stop.wait(0.1):
            connection.sendall(b"\x00")

    tournament, organizer, _other = cup
    receiver = raw_receiver(handshake, read=False)
    url = receiver.url.replace("http://", "https://")
    delivery, elapsed = timed_ping(tournament, organizer, url, django_capture_on_commit_callbacks)
    assert elapsed < DEADLINE + MARGIN and receiver.connections == 1
    assert delivery.status == Delivery.Status.QUEUED and "No answer within" in delivery.message


def test_a_receiver_that_never_reads_the_request_is_cut_off_at_the_deadline(local, deadline):
    """Sending is under the deadline too: a receiver that accepts and never reads fills the socket's buffers."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    try:
        started = time.monotonic()
        with pytest.raises(outbound.Failed, match="No answer within"):
            outbound.post(f"http://127.0.0.1:{listener.getsockname()[1]}/", b"x" * 20_000_000, {})
        assert time.monotonic() - started < DEADLINE + MARGIN
    finally:
        listener.close()


@pytest.mark.parametrize(("answer", "reason"), [
    (b"HTTP/1.1 200 OK\r\n" + b"".join(f"X-Many-{n}: {n}\r\n".encode() for n in range(10_000)) + b"\r\n",
     f"The answer has more than {outbound.HEADERS_MAX} headers."),
    (b"HTTP/1.1 200 OK\r\nX-Huge: " + b"a" * 1_000_000 + b"\r\n\r\n",
     f"The answer's headers exceed {outbound.HEADER_BYTES_MAX} bytes."),
    (b"HTTP/1.1 200 OK\r\n" + b"".join(f"X-Long-{n}: {'b' * 1000}\r\n".encode() for n in range(40)) + b"\r\n",
     f"The answer's headers exceed {outbound.HEADER_BYTES_MAX} bytes."),
    (b"HTTP/1.1 100 Continue\r\n\r\n" * 5_000 + b"HTTP/1.1 200 OK\r\n\r\n",
     f"The answer's headers exceed {outbound.HEADER_BYTES_MAX} bytes."),
], ids=["10,000 headers", "a 1 MB header", "40 KB of headers", "5,000 interim answers"])
def test_too_many_or_too_large_headers_are_cut_off(local, cup, later, raw_receiver, answer, reason,
                                                    django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    receiver = raw_receiver(at_once(answer))
    delivery, _elapsed = timed_ping(tournament, organizer, receiver.url, django_capture_on_commit_callbacks)
    assert (delivery.status, delivery.message, delivery.response_status) == (Delivery.Status.QUEUED, reason, None)


def test_an_answer_within_the_limits_is_taken(local, raw_receiver):
    """The limits stop at their numbers: 50 headers, and a body read only as far as it is kept."""
    headers = b"".join(f"X-Fine-{n}: {n}\r\n".encode() for n in range(outbound.HEADERS_MAX - 1))
    body = b"y" * 1_000_000
    receiver = raw_receiver(at_once(b"HTTP/1.1 201 Created\r\n" + headers + b"Content-Length: %d\r\n\r\n" % len(body)
                                    + body))
    answer = outbound.post(receiver.url, b"{}", {})
    assert (answer.status, answer.reason, answer.body) == (201, "Created", "y" * outbound.KEEP_BYTES)
