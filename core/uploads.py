"""Uploaded files are capped while they arrive, before they are held in memory or on disk.

Django reads a request's whole body before a view runs: a form's size check on `UploadedFile.size` comes after
the upload was kept (in memory up to FILE_UPLOAD_MAX_MEMORY_SIZE, in a temporary file beyond). `CappedUploadHandler`
comes first among the upload handlers (settings.FILE_UPLOAD_HANDLERS): it counts each file's bytes as they arrive
and, past `MAX_UPLOAD_BYTES`, passes no more of them on. The rest of the body is read and dropped, so the form still
gets its other fields (the CSRF token among them), and the file arrives as an empty `RefusedUpload` whose `size`
says how much was sent: the form's own size check refuses it with the file's name and the limit.
"""
from typing import Any, Self

from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""The largest file any form accepts (the registration list's limit)."""


class RefusedUpload(UploadedFile):
    """A file that was too large: its name and the bytes sent, no content."""

    def __init__(self, name: str | None, size: int, content_type: str | None) -> None:
        super().__init__(file=None, name=name, content_type=content_type, size=size)

    def open(self, *args: Any, **kwargs: Any) -> Self:  # nothing was kept to read
        raise ValueError("A refused upload has no content.")


class CappedUploadHandler(FileUploadHandler):
    """Counts each file's bytes; past the cap, keeps none of it (see the module's docstring)."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0
        self.dropped = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received <= MAX_UPLOAD_BYTES:
            return raw_data
        if not self.dropped:  # close what the next handlers kept so far (a temporary file is deleted when closed)
            self.dropped = True
            for handler in self.request.upload_handlers if self.request is not None else ():
                kept = getattr(handler, "file", None)
                if handler is not self and kept is not None:
                    kept.close()
        return None  # the handlers after this one get nothing more

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if self.dropped:
            return RefusedUpload(self.file_name, self.received, self.content_type)
        return None
