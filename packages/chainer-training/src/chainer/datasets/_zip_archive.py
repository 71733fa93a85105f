"""Reading zip archives that may be damaged: every failure is a ``zipfile.BadZipFile`` that
names the archive (and the member), and a member's decoder allocates within a bound."""

from __future__ import annotations

import contextlib
import lzma
import struct
import zipfile
import zlib
from collections.abc import Iterator

#: What zipfile and its decompressors raise, besides BadZipFile, for a damaged archive.
DAMAGED_ARCHIVE_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    NotImplementedError,  # an unknown compression method
    RuntimeError,  # an encrypted member ("password required")
    ValueError,  # UnicodeDecodeError of a name flagged UTF-8, and others
    OverflowError,
    struct.error,
)

#: The LZMA dictionary a member may ask for beyond twice its size: the default of Python's
#: zipfile and of xz's presets up to 6. (7-Zip shrinks the dictionary to about the member's
#: size.) The decoder reserves the whole dictionary before it reads anything.
LZMA_DICTIONARY_FLOOR = 8 * 2**20


def damaged(archive: str, name: str | None, error: BaseException) -> zipfile.BadZipFile:
    """The BadZipFile for ``error``, naming the archive and the member (if any)."""
    where = f"the member {name!r} of " if name is not None else ""
    kind = type(error).__name__
    if type(error).__module__ != "builtins":
        kind = f"{type(error).__module__}.{kind}"
    return zipfile.BadZipFile(
        f"{where}the zip archive {archive!r} is damaged or unreadable: {kind}: {error}"
    )


@contextlib.contextmanager
def archive_errors(archive: str, name: str | None = None) -> Iterator[None]:
    """Raise what zipfile raises for damage as BadZipFile naming the archive and member."""
    try:
        yield
    except DAMAGED_ARCHIVE_ERRORS as error:
        if isinstance(error, zipfile.BadZipFile) and repr(archive) in str(error):
            raise  # already ours
        raise damaged(archive, name, error) from error


def open_archive(path: str) -> zipfile.ZipFile:
    """``zipfile.ZipFile(path)``, failing with BadZipFile naming ``path`` when damaged."""
    with archive_errors(path):
        return zipfile.ZipFile(path)


def check_lzma_dictionary(path: str, member: zipfile.ZipInfo) -> None:
    """Refuse an LZMA member whose dictionary exceeds both ``LZMA_DICTIONARY_FLOOR`` and
    twice the member's size (a damaged header can ask for 4 GiB)."""
    if member.compress_type != zipfile.ZIP_LZMA:
        return
    with open(path, "rb") as archive:
        archive.seek(member.header_offset)
        header = archive.read(30)
        if len(header) < 30:
            raise zipfile.BadZipFile("the local header is cut off")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        archive.seek(member.header_offset + 30 + name_length + extra_length)
        # LZMA in zip: version (2 bytes), size of the properties (2), lc/lp/pb (1), dictionary
        # size (4, little-endian).
        properties = archive.read(9)
    if len(properties) < 9:
        raise zipfile.BadZipFile("the LZMA properties are cut off")
    dictionary = struct.unpack("<I", properties[5:9])[0]
    if dictionary > max(LZMA_DICTIONARY_FLOOR, 2 * member.file_size):
        raise zipfile.BadZipFile(
            f"the LZMA dictionary of {dictionary} bytes is larger than "
            f"{LZMA_DICTIONARY_FLOOR} bytes and than twice the member's {member.file_size} "
            "bytes"
        )
