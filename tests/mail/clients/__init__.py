"""Replies as real mail clients write them, in each client's structure and each language's words.

Written for these tests (no copies of other projects' fixtures): a LANGUAGES row says how a
client in that language heads a quote (the Gmail-style "On … wrote:" line, Outlook's
From/Sent/To/Subject labels, the "Original Message" rule, the phone signature) and a line of
chatter; a CLIENTS entry says how that client lays out a reply in plain text and in HTML
(None where the client sends no such part, e.g. Hotmail's HTML-only replies). `build(client,
language, new, quoted, fmt, encoding)` gives the MIME message. Add a language or a client by
adding a row: every test that reads CASES takes it.
"""

import html as html_lib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from django.utils import timezone

BOT = "cribbage@localhost"


@dataclass(frozen=True)
class Language:
    code: str
    chatter: str  # a reply with no instruction
    wrote: str  # the attribution line ({bot} the address)
    labels: tuple  # Outlook's From, Sent, To, Subject
    original: str  # the "Original Message" rule
    phone: str  # the phone's signature


LANGUAGES = [
    Language(
        "en",
        "Thanks, sounds good.",
        "On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <{bot}> wrote:",
        ("From", "Sent", "To", "Subject"),
        "-----Original Message-----",
        "Sent from my iPhone",
    ),
    Language(
        "fr",
        "Merci, ça me va.",
        "Le lun. 2 juin 2025 à 10:00, Cribbage by mail <{bot}> a écrit :",
        ("De", "Envoyé", "À", "Objet"),
        "-------- Message d'origine --------",
        "Envoyé de mon iPhone",
    ),
    Language(
        "de",
        "Danke, klingt gut.",
        "Am Mo., 2. Juni 2025 um 10:00 Uhr schrieb Cribbage by mail <{bot}>:",
        ("Von", "Gesendet", "An", "Betreff"),
        "-----Ursprüngliche Nachricht-----",
        "Von meinem iPhone gesendet",
    ),
    Language(
        "nl",
        "Bedankt, klinkt goed.",
        "Op ma 2 jun 2025 om 10:00 schreef Cribbage by mail <{bot}>:",
        ("Van", "Verzonden", "Aan", "Onderwerp"),
        "-----Oorspronkelijk bericht-----",
        "Verstuurd vanaf mijn iPhone",
    ),
    Language(
        "pl",
        "Dzięki, brzmi dobrze.",
        "pon., 2 cze 2025 o 10:00 Cribbage by mail <{bot}> napisał(a):",
        ("Od", "Wysłano", "Do", "Temat"),
        "-----Wiadomość oryginalna-----",
        "Wysłano z iPhone'a",
    ),
    Language(
        "da",
        "Tak, det lyder godt.",
        "Den man. 2. jun. 2025 kl. 10.00 skrev Cribbage by mail <{bot}>:",
        ("Fra", "Sendt", "Til", "Emne"),
        "-----Oprindelig meddelelse-----",
        "Sendt fra min iPhone",
    ),
    Language(
        "it",
        "Grazie, va bene.",
        "Il giorno lun 2 giu 2025 alle ore 10:00 Cribbage by mail <{bot}> ha scritto:",
        ("Da", "Inviato", "A", "Oggetto"),
        "-----Messaggio originale-----",
        "Inviato da iPhone",
    ),
    Language(
        "fi",
        "Kiitos, kuulostaa hyvältä.",
        "ma 2.6.2025 klo 10.00 Cribbage by mail (<{bot}>) kirjoitti:",
        ("Lähettäjä", "Lähetetty", "Vastaanottaja", "Aihe"),
        "-----Alkuperäinen viesti-----",
        "Lähetetty iPhonesta",
    ),
    Language(
        "ru",
        "Спасибо, звучит хорошо.",
        "пн, 2 июн. 2025 г. в 10:00, Cribbage by mail <{bot}>:",
        ("От", "Отправлено", "Кому", "Тема"),
        "-----Исходное сообщение-----",
        "Отправлено с iPhone",
    ),
    Language(
        "es",
        "Gracias, me parece bien.",
        "El lun, 2 jun 2025 a las 10:00, Cribbage by mail (<{bot}>) escribió:",
        ("De", "Enviado", "Para", "Asunto"),
        "-----Mensaje original-----",
        "Enviado desde mi iPhone",
    ),
    Language(
        "pt",
        "Obrigado, parece bom.",
        "Em seg., 2 de jun. de 2025 às 10:00, Cribbage by mail <{bot}> escreveu:",
        ("De", "Enviado", "Para", "Assunto"),
        "-----Mensagem original-----",
        "Enviado do meu iPhone",
    ),
    Language(
        "sv",
        "Tack, låter bra.",
        "Den mån 2 juni 2025 kl 10:00 skrev Cribbage by mail <{bot}>:",
        ("Från", "Skickat", "Till", "Ämne"),
        "-----Ursprungligt meddelande-----",
        "Skickat från min iPhone",
    ),
    Language(
        "no",
        "Takk, høres bra ut.",
        "man. 2. jun. 2025 kl. 10:00 skrev Cribbage by mail <{bot}>:",
        ("Fra", "Sendt", "Til", "Emne"),
        "-----Opprinnelig melding-----",
        "Sendt fra min iPhone",
    ),
    Language(
        "ja",
        "ありがとう、いいですね。",
        "2025年6月2日(月) 10:00 Cribbage by mail <{bot}>:",
        ("差出人", "送信日時", "宛先", "件名"),
        "-----Original Message-----",
        "iPhoneから送信",
    ),
    Language(
        "zh",
        "谢谢，听起来不错。",
        "Cribbage by mail <{bot}> 于2025年6月2日周一 10:00写道：",
        ("发件人", "发送时间", "收件人", "主题"),
        "-----原始邮件-----",
        "发自我的iPhone",
    ),
]


def _esc(text):
    return html_lib.escape(text, quote=False)


def _quote(lines):
    return "\n".join(("> " + line).rstrip() for line in lines)


def _labels(lang, sep=": "):
    f, s, t, j = lang.labels
    space = " " if lang.code == "fr" else ""  # French puts a space before the colon
    return [
        f"{f}{space}{sep}Cribbage by mail <{BOT}>",
        f"{s}{space}{sep}Monday, June 2, 2025 10:00 AM",
        f"{t}{space}{sep}Alice <alice@example.com>",
        f"{j}{space}{sep}Re: Your move",
    ]


def _html_lines(lines):
    return "<br>".join(_esc(line) for line in lines)


def _bold_labels(lang):
    return "<br>".join(
        f"<b>{_esc(label)}{' ' if lang.code == 'fr' else ''}:</b> {_esc(rest)}"
        for label, rest in zip(
            lang.labels,
            [
                f"Cribbage by mail <{BOT}>",
                "Monday, June 2, 2025 10:00 AM",
                "Alice <alice@example.com>",
                "Re: Your move",
            ],
            strict=True,
        )
    )


# How each client lays out a reply: (plain, html), each a function of (language, new words,
# the quoted lines) or None where the client sends no such part.
def _gmail(lang, new, quoted):
    wrote = lang.wrote.format(bot=BOT)
    plain = f"{new}\n\n{wrote}\n\n{_quote(quoted)}\n"
    html = (
        f'<div dir="ltr">{_esc(new)}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
        f'{_esc(wrote)}<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
        f'border-left:1px solid rgb(204,204,204);padding-left:1ex">{_html_lines(quoted)}</blockquote></div>'
    )
    return plain, html


def _outlook(lang, new, quoted):
    plain = f"{new}\n\n________________________________\n" + "\n".join(_labels(lang)) + "\n\n" + "\n".join(quoted)
    html = (
        f'<div class="WordSection1"><p class="MsoNormal">{_esc(new)}<o:p></o:p></p><p class="MsoNormal">'
        "<o:p>&nbsp;</o:p></p><div><div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'>"
        f'<p class="MsoNormal">{_bold_labels(lang)}<o:p></o:p></p></div></div>'
        f'<p class="MsoNormal">{_html_lines(quoted)}</p></div>'
    )
    return plain, html


def _outlook_web(lang, new, quoted):
    plain = f"{new}\n\n{lang.original}\n" + "\n".join(_labels(lang)) + "\n\n" + "\n".join(quoted)
    html = (
        f'<div style="font-family:Calibri,Arial">{_esc(new)}</div><div id="appendonsend"></div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
        f'<font face="Calibri" style="font-size:11pt">{_bold_labels(lang)}</font><div>&nbsp;</div></div>'
        f"<div>{_html_lines(quoted)}</div>"
    )
    return plain, html


def _hotmail(lang, new, quoted):
    html = (
        "<html><head><style><!-- .hmmessage P { margin:0px; padding:0px } --></style></head>"
        f'<body class="hmmessage"><div dir="ltr">{_esc(new)}<br><br><div><hr id="stopSpelling">'
        f"{_bold_labels(lang)}<br><br>{_html_lines(quoted)}</div></div></body></html>"
    )
    return None, html


def _apple(lang, new, quoted):
    wrote = lang.wrote.format(bot=BOT)
    plain = f"{new}\n\n> {wrote}\n>\n{_quote(quoted)}\n"
    html = (
        f'<html><body style="overflow-wrap: break-word;"><div>{_esc(new)}</div><br><div>'
        f'<blockquote type="cite"><div>{_esc(wrote)}</div><br class="Apple-interchange-newline">'
        f"<div><div>{_html_lines(quoted)}</div></div></blockquote></div></body></html>"
    )
    return plain, html


def _ios(lang, new, quoted):
    wrote = lang.wrote.format(bot=BOT)
    plain = f"{new}\n\n{lang.phone}\n\n> {wrote}\n>\n{_quote(quoted)}\n"
    html = (
        f'<html><body dir="auto"><div dir="ltr">{_esc(new)}</div><div dir="ltr"><br>'
        f'<div dir="ltr">{_esc(lang.phone)}</div><div dir="ltr"><br><blockquote type="cite">{_esc(wrote)}'
        f'<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">{_html_lines(quoted)}</div>'
        "</blockquote></div></body></html>"
    )
    return plain, html


def _thunderbird(lang, new, quoted):
    wrote = lang.wrote.format(bot=BOT)
    plain = f"{new}\n\n{wrote}\n{_quote(quoted)}\n\n"
    html = (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"></head><body>'
        f'<p>{_esc(new)}</p><div class="moz-cite-prefix">{_esc(wrote)}<br></div>'
        f'<blockquote type="cite" cite="mid:turn.3@localhost">{_html_lines(quoted)}</blockquote></body></html>'
    )
    return plain, html


def _yahoo(lang, new, quoted):
    wrote = lang.wrote.format(bot=BOT)
    plain = f"{new}\n\n\n    {wrote}  \n \n" + "\n".join(" " + line for line in quoted) + "\n"
    html = (
        f'<html><body><div class="ydp3a1b2c3dyahoo-style-wrap"><div dir="ltr">{_esc(new)}</div></div>'
        '<div id="yahoo_quoted_1234567" class="yahoo_quoted"><div style="font-family:Helvetica,Arial">'
        f'<div>{_esc(wrote)}</div><div><br></div><div><br></div><div><div dir="ltr">{_html_lines(quoted)}'
        "</div></div></div></div></body></html>"
    )
    return plain, html


CLIENTS = {
    "gmail": _gmail,
    "outlook": _outlook,
    "outlook_web": _outlook_web,
    "hotmail": _hotmail,
    "apple_mail": _apple,
    "ios_mail": _ios,
    "thunderbird": _thunderbird,
    "yahoo": _yahoo,
}
FORMATS = ["plain", "html", "multipart"]


def formats_of(client):
    plain, html = CLIENTS[client](LANGUAGES[0], "x", ["y"])
    return [f for f in FORMATS if (f != "plain" or plain) and (f == "plain" or html) and (f != "multipart" or plain)]


CASES = [(client, lang.code, fmt) for client in CLIENTS for lang in LANGUAGES for fmt in formats_of(client)]
LANGUAGE = {lang.code: lang for lang in LANGUAGES}


def quoted_turn(old, game_id=3):
    """What a reply quotes: the player's earlier reply (an old instruction) above our turn email."""
    return [
        old,
        "",
        f"Player 1, it is your turn to lay away two cards in game {game_id} (Alice v Bob).",
        "Your hand: 7♣ 9♦ 5♥ J♦ K♠ 2♣",
    ]


def build(client, code, new, quoted, fmt, *, sender, to, subject="Re: Your move", encoding=None):
    """The reply as `client` in language `code` sends it: plain, html (alone) or multipart, each
    part quoted-printable or base64 (`encoding`, else alternating by format)."""
    plain, html = CLIENTS[client](LANGUAGE[code], new, quoted)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = make_msgid(domain="mail.example.com")
    first = encoding or ("quoted-printable" if fmt != "html" else "base64")
    second = "base64" if first == "quoted-printable" else "quoted-printable"
    if fmt == "plain":
        message.set_content(plain, cte=first)
    elif fmt == "html":
        message.set_content(html, subtype="html", cte=first)
    else:
        message.set_content(plain, cte=first)
        message.add_alternative(html, subtype="html", cte=second)
    return message
