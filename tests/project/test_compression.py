"""Responses compressed at zlib's level 1 (cribsite.compression): Django's GZipMiddleware and its
BREACH padding otherwise."""

import gzip

from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from cribsite import compression

BODY = ("<p>The crib is yours: fifteen two, fifteen four, and a pair is six.</p>\n" * 200).encode()


def compressed(response, accept="gzip, deflate"):
    request = RequestFactory().get("/", headers={"accept-encoding": accept} if accept else {})
    return compression.GZipMiddleware(lambda r: response)(request)


def test_a_body_is_compressed_at_level_one_and_padded_as_djangos():
    response = compressed(HttpResponse(BODY))
    assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
    assert response["Content-Length"] == str(len(response.content))
    assert gzip.decompress(response.content) == BODY
    # A gzip header with a file name (the padding), then level 1's deflate stream and trailer.
    assert response.content[3] & gzip.FNAME
    name_end = response.content.index(b"\x00", 10)
    assert response.content[name_end + 1 :] == gzip.compress(BODY, compresslevel=1, mtime=0)[10:]
    assert gzip.compress(BODY, compresslevel=1, mtime=0) != gzip.compress(BODY, compresslevel=6, mtime=0)


def test_the_padding_varies_from_one_response_to_the_next():
    lengths = {len(compressed(HttpResponse(BODY)).content) for _ in range(20)}
    assert len(lengths) > 1


def test_a_strong_etag_is_made_weak():
    response = HttpResponse(BODY)
    response["ETag"] = '"abc"'
    assert compressed(response)["ETag"] == 'W/"abc"'


def test_what_is_not_compressed():
    plain = compressed(HttpResponse(BODY), accept="")
    assert plain.content == BODY and "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    small = compressed(HttpResponse(b"<p>ok</p>"))
    assert small.content == b"<p>ok</p>" and "Content-Encoding" not in small
    encoded = HttpResponse(BODY)
    encoded["Content-Encoding"] = "br"
    assert compressed(encoded).content == BODY


def test_a_streamed_body_is_djangos_to_compress():
    response = compressed(StreamingHttpResponse(iter([BODY[:5000], BODY[5000:]])))
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(response.streaming_content)) == BODY
