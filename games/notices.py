"""What games announce for someone to tell the players by email (mail connects in MailConfig.ready()).

games never imports mail (mail is above it): it sends these signals, inside
the transaction that causes them, and mail owes the emails in its outbox.
"""
from django.dispatch import Signal

# A challenge to tell a player about: challenge=, to= (the User), kind= ("challenge": you are
# challenged; "accepted": the game has started; "declined"), by= (the User who accepted or declined).
challenge_notice = Signal()
