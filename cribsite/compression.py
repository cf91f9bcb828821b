"""Django's GZipMiddleware, compressing at zlib's level 1 rather than 6.

Compressing the game page (some 50 KB of HTML, half of it the board's drawing) at Django's level
6 cost about 560 microseconds of CPU, a twelfth of the page under gunicorn, for 8.6 KB; level 1
costs about 260 for 10.4 KB. CPU is what a page costs this service, not a few kilobytes. The
rest is Django's: responses under 200 bytes, streamed ones and those already encoded are left
to it, and the body carries the same BREACH padding (a random-length file name in the gzip
header, Django's `compress_string`).
"""

import gzip
import secrets

from django.middleware import gzip as django_gzip
from django.utils.cache import patch_vary_headers

LEVEL = 1


class GZipMiddleware(django_gzip.GZipMiddleware):
    def process_response(self, request, response):
        if response.streaming or len(response.content) < 200 or response.has_header("Content-Encoding"):
            return super().process_response(request, response)
        # From here Django's, for a body in hand, compressed at LEVEL.
        patch_vary_headers(response, ("Accept-Encoding",))
        if not django_gzip.re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = compress(response.content, max_random_bytes=self.max_random_bytes)
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response


def compress(content, *, max_random_bytes):
    """django.utils.text.compress_string at LEVEL: gzip, padded by a file name of 0 to
    max_random_bytes - 1 bytes in its header."""
    data = gzip.compress(content, compresslevel=LEVEL, mtime=0)
    header = bytearray(data[:10])
    header[3] = gzip.FNAME
    return bytes(header) + b"a" * secrets.randbelow(max_random_bytes) + b"\x00" + data[10:]
