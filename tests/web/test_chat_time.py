"""Each chat line says when it was written, in the reader's own time zone (the walk-through found no times)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.test import Client

from games import services
from games.models import ChatMessage


def test_a_chat_line_shows_its_time_in_the_readers_zone(game, player, opponent):
    message = services.chat_post(game_id=game.pk, user=opponent, text="good luck")
    ChatMessage.objects.filter(pk=message.pk).update(created=datetime(2026, 3, 4, 22, 5, tzinfo=UTC))
    player.time_zone = "Asia/Taipei"
    player.save(update_fields=["time_zone"])
    client = Client()
    client.force_login(player)
    html = client.get(game.get_absolute_url()).content.decode()
    line = html.split('id="chat-messages"', 1)[1].split("</ul>", 1)[0]
    # 22:05 UTC is 06:05 the next day in Taipei.
    assert '<time class="chat-time" datetime="2026-03-05T06:05:00+08:00">03-05 06:05</time>' in line
    assert "good luck" in line
