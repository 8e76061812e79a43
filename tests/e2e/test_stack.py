"""Issue 34 item 1: `make stack` as deployed (the session's stack, tests/e2e/conftest.py, which also checks that
SIGTERM stops every process it started). Through nginx, over TLS checked against the stack's own CA: /healthz
from both replicas, /livez, /metrics for the token only; the mail server keeps each message exactly as sent; the
push receiver records what it is sent."""
import json
import smtplib
import ssl
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from urllib.error import HTTPError, URLError

import pytest

from reliability.push_receiver import received

pytestmark = [pytest.mark.e2e, pytest.mark.stack]


def get(stack, path: str, **headers):
    """A request through nginx at https://catan.test:<port> (connected by address, the name as Host and SNI's)."""
    port = stack["site_url"].rsplit(":", 1)[1]
    context = ssl.create_default_context(cafile=stack["ca"])
    request = urllib.request.Request(f"https://127.0.0.1:{port}{path}", headers={"Host": f"catan.test:{port}",
                                                                                   **headers})
    return urllib.request.urlopen(request, timeout=10, context=context)


def test_both_replicas_answer_through_the_tls_proxy_with_a_request_id(stack):
    answers = []
    for _ in range(6):
        with get(stack, "/healthz") as response:
            answers.append(json.load(response))
            assert len(response.headers["X-Request-ID"]) == 32
    assert {a["status"] for a in answers} == {"ok"}
    assert {(a["database"], a["cache"], a["broker"]) for a in answers} == {("ok", "ok", "ok")}
    assert {a["instance"] for a in answers} == {"web-1", "web-2"}  # nginx takes turns
    with get(stack, "/livez") as response:
        assert json.load(response)["instance"] in ("web-1", "web-2")
    with pytest.raises(URLError) as refused:  # the certificate is trusted through the stack's CA only
        urllib.request.urlopen(f"https://127.0.0.1:{stack['site_url'].rsplit(':', 1)[1]}/livez", timeout=10)
    assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)


def test_metrics_answer_the_token_only_and_count_both_replicas(stack):
    with pytest.raises(HTTPError) as refused:
        get(stack, "/metrics")
    assert refused.value.code == 401
    with get(stack, "/metrics", Authorization=f"Bearer {stack['env']['METRICS_TOKEN']}") as response:
        text = response.read().decode()
    assert 'view="healthz"' in text and "django_db_execute_total" in text and "catan_celery_queue_length" in text


def test_the_mail_server_keeps_each_message_exactly_as_sent(stack):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@catan.test", "b@example.com", "Stack check"
    message.set_content("https://catan.test/me/x/\n")
    folder = Path(stack["mail"])
    before = set(folder.glob("*.eml"))
    with smtplib.SMTP("127.0.0.1", stack["smtp_port"], timeout=10) as smtp:
        smtp.send_message(message)
    [written] = set(folder.glob("*.eml")) - before
    assert b"Subject: Stack check" in written.read_bytes() and b"https://catan.test/me/x/" in written.read_bytes()


def test_the_push_receiver_answers_201_and_records_the_message(stack):
    context = ssl.create_default_context(cafile=stack["ca"])
    port = stack["push_url"].rstrip("/").rsplit(":", 1)[1]
    request = urllib.request.Request(f"https://127.0.0.1:{port}/send/phone-1", data=b"\x01encrypted",
                                     headers={"TTL": "60", "Content-Encoding": "aes128gcm"}, method="POST")
    before = len(received(Path(stack["push"])))
    with urllib.request.urlopen(request, timeout=10, context=context) as response:
        assert response.status == 201
    record = received(Path(stack["push"]))[before]
    assert record["path"] == "/send/phone-1" and record["headers"]["Content-Encoding"] == "aes128gcm"
