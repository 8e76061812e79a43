"""EMAIL_URL read whole (issue 32, item 3): `filemail:///path` failed every email, since the folder it names was never
read. Each form is read part by part, a part it does not know is refused by name, and a real message is sent through
each: to a folder, and to a real SMTP server on loopback (aiosmtpd: plain, STARTTLS, TLS from the start, with a
user and password), by the settings a fresh interpreter reads from the environment, through the email queue's own
`deliver`."""
import json
import subprocess
import sys
from email import message_from_string

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.email_url import DEFAULT_TIMEOUT, SMTP, email_settings
from tests.smtp import free_port, smtp_server
from tests.test_settings import ROOT, clean_env

SEND = """
import json, django; django.setup()
from django.conf import settings
from django.core.mail import get_connection
from core.mail import deliver
deliver({"to": "ana@example.com", "subject": "Your table", "body": "Table 3, position 2.",
         "attachments": [["cup.ics", "BEGIN:VCALENDAR", "text/calendar"]]})
c = get_connection()
print(json.dumps({"backend": settings.EMAIL_BACKEND, "timeout": getattr(c, "timeout", None)}))
"""


def send(email_url: str, **env) -> subprocess.CompletedProcess:
    """One message sent by the email queue's `deliver` in a fresh interpreter whose settings read `email_url`."""
    return subprocess.run([sys.executable, "-c", SEND], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", DEBUG="1",
                                        EMAIL_URL=email_url, **env))


def test_a_file_address_writes_each_message_in_its_folder(tmp_path):
    folder = tmp_path / "mail" / "out"  # made by the backend when missing
    result = send(f"filemail://{folder}")
    assert result.returncode == 0, result.stderr
    (written,) = folder.iterdir()
    message = message_from_string(written.read_text().split("\n" + "-" * 79)[0])
    assert message["To"] == "ana@example.com" and message["Subject"] == "Your table"
    assert "Table 3, position 2." in written.read_text() and "cup.ics" in written.read_text()


def test_plain_smtp_reaches_the_server(tmp_path):
    with smtp_server(tmp_path) as (inbox, port, _cert):
        result = send(f"smtp://127.0.0.1:{port}/?timeout=4")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["timeout"] == 4.0
    (message,) = inbox.messages
    assert message["To"] == "ana@example.com" and message["Subject"] == "Your table"


@pytest.mark.parametrize(("scheme", "tls"), [("submission", "starttls"), ("smtp+tls", "starttls"),
                                             ("smtps", "implicit"), ("smtp+ssl", "implicit")])
def test_tls_with_a_user_and_a_password_reaches_the_server(tmp_path, scheme, tls):
    """The password has characters a URL must escape ("@", "/"): percent-encoded in the address, sent as typed (the
    server takes the message only after that user and password signed in)."""
    with smtp_server(tmp_path, tls=tls, login=("mailer@catan.example", "p@ss/word")) as (inbox, port, cert):
        result = send(f"{scheme}://mailer%40catan.example:p%40ss%2Fword@localhost:{port}",
                      SSL_CERT_FILE=str(cert))  # the server's certificate, trusted as a provider's would be
    assert result.returncode == 0, result.stderr
    assert inbox.logins == ["mailer@catan.example"] and len(inbox.messages) == 1


def test_an_address_that_does_not_start_is_named_at_start():
    result = send("filemail://var/mail/catan")  # two slashes: "var" is a host
    assert result.returncode != 0 and "EMAIL_URL: filemail:// takes the folder's absolute path" in result.stderr


@pytest.mark.parametrize(("url", "expected"), [
    ("smtp://mail.example", {"host": "mail.example", "port": 25, "use_tls": False, "use_ssl": False}),
    ("submission://u:p@mail.example", {"port": 587, "use_tls": True, "host_user": "u", "host_password": "p"}),
    ("smtp+tls://mail.example:2525", {"port": 2525, "use_tls": True}),
    ("smtps://mail.example", {"port": 465, "use_ssl": True, "use_tls": False}),
    ("smtp+ssl://a%2Bb%40x.example:%C3%A9t%C3%A9@mail.example", {"port": 465, "host_user": "a+b@x.example",
                                                                "host_password": "été"}),
    ("smtp://mail.example/?timeout=2.5&ssl_certfile=/etc/c.pem&ssl_keyfile=/etc/k.pem",
     {"timeout": 2.5, "ssl_certfile": "/etc/c.pem", "ssl_keyfile": "/etc/k.pem"}),
    ("SMTP://mail.example", {"backend": SMTP}),
    ("filemail:///var/mail/my%20catan", {"backend": "django.core.mail.backends.filebased.EmailBackend",
                                         "file_path": "/var/mail/my catan"}),
    ("consolemail://", {"backend": "django.core.mail.backends.console.EmailBackend"}),
    ("memorymail://", {"backend": "django.core.mail.backends.locmem.EmailBackend"}),
    ("dummymail://", {"backend": "django.core.mail.backends.dummy.EmailBackend"}),
])
def test_every_part_of_the_address_is_read(url, expected):
    read = email_settings(url)
    assert {name: getattr(read, name) for name in expected} == expected
    if read.backend == SMTP and "timeout" not in expected:
        assert read.timeout == DEFAULT_TIMEOUT


@pytest.mark.parametrize(("url", "problem"), [
    ("mail.example", "is not an address"),
    ("submissions://mail.example", "submissions:// is not a kind of address it knows"),
    ("smtp://", "needs the mail server's host"),
    ("smtp://mail.example:port", "port that is not a number"),
    ("smtp://mail.example/inbox", "takes nothing after the host and port"),
    ("smtp://mail.example/?tls=1", "unknown option 'tls'"),
    ("smtp://mail.example/?timeout=0", "timeout='0' is not a number of seconds above 0"),
    ("smtp://mail.example/?timeout=soon", "timeout='soon'"),
    ("smtp://mail.example/?timeout=nan", "timeout='nan'"),
    ("filemail://var/mail", "absolute path after three slashes"),
    ("filemail:relative", "is not an address"),
    ("filemail:///var/mail?x=1", "takes no options"),
    ("consolemail://somewhere", "takes nothing after the scheme"),
])
def test_a_part_it_does_not_know_is_refused_by_name(url, problem):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL: ") as refused:
        email_settings(url)
    assert problem in str(refused.value)


def test_the_password_is_never_in_a_message():
    with pytest.raises(ImproperlyConfigured) as refused:
        email_settings("submission://mailer:Sup3r-Secret@mail.example/?tls=1")
    assert "Sup3r-Secret" not in str(refused.value)


def test_a_server_that_does_not_answer_costs_one_timeout(tmp_path):
    """A socket that accepts and never speaks: the attempt ends at the URL's timeout, with a reason."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", free_port()))
    silent.listen()
    try:
        result = send(f"smtp://127.0.0.1:{silent.getsockname()[1]}/?timeout=0.5")
    finally:
        silent.close()
    assert result.returncode != 0 and "TimeoutError" in result.stderr
