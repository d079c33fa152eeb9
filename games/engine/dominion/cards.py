"""Dominion card data, in one place: cost, types, text, names in three languages.

Source: ``shared/rules/dominion.md`` sections 1, 8 (first-edition texts,
paraphrased) and 14 (names of the Taiwanese edition, Simplified Chinese in
simplified characters). Costs never change in the base set.
"""

from __future__ import annotations

from dataclasses import dataclass

ACTION = "Action"
TREASURE = "Treasure"
VICTORY = "Victory"
CURSE = "Curse"
ATTACK = "Attack"
REACTION = "Reaction"


@dataclass(frozen=True, slots=True)
class Card:
    """One card name's data.

    Attributes:
        name: the English first-edition name, as spelled in the notation.
        cost: price in coins.
        types: e.g. ``("Action", "Attack")``; Curse is ``("Curse",)``, not Victory.
        text: the first-edition text, paraphrased, in English.
        zh_hant, zh_hans: the name in Traditional and Simplified Chinese.
        coins: what the card produces when played as a Treasure.
        vp: fixed victory points (Gardens is computed; see ``engine.score``).
    """

    name: str
    cost: int
    types: tuple[str, ...]
    text: str
    zh_hant: str
    zh_hans: str
    coins: int = 0
    vp: int = 0

    @property
    def is_action(self) -> bool:
        return ACTION in self.types

    @property
    def is_treasure(self) -> bool:
        return TREASURE in self.types

    @property
    def is_victory(self) -> bool:
        return VICTORY in self.types

    @property
    def is_attack(self) -> bool:
        return ATTACK in self.types


def _c(name: str, cost: int, types: list[str], text: str, hant: str, hans: str, coins: int = 0, vp: int = 0) -> Card:
    return Card(name, cost, tuple(types), text, hant, hans, coins, vp)


_ALL = [
    _c("Copper", 0, [TREASURE], "$1", "銅幣", "铜币", coins=1),
    _c("Silver", 3, [TREASURE], "$2", "銀幣", "银币", coins=2),
    _c("Gold", 6, [TREASURE], "$3", "金幣", "金币", coins=3),
    _c("Estate", 2, [VICTORY], "1 VP", "莊園", "庄园", vp=1),
    _c("Duchy", 5, [VICTORY], "3 VP", "公國", "公国", vp=3),
    _c("Province", 8, [VICTORY], "6 VP", "領地", "领地", vp=6),
    _c("Curse", 0, [CURSE], "-1 VP", "詛咒", "诅咒", vp=-1),
    _c("Cellar", 2, [ACTION], "+1 Action. Discard any number of cards. +1 Card per card discarded.", "地窖", "地窖"),
    _c("Chapel", 2, [ACTION], "Trash up to 4 cards from your hand.", "禮拜堂", "礼拜堂"),
    _c(
        "Moat",
        2,
        [ACTION, REACTION],
        "+2 Cards. When another player plays an Attack card, you may reveal this from your hand. "
        "If you do, you are unaffected by that Attack.",
        "護城河",
        "护城河",
    ),
    _c("Chancellor", 3, [ACTION], "+$2. You may immediately put your deck into your discard pile.", "大臣", "大臣"),
    _c("Village", 3, [ACTION], "+1 Card, +2 Actions.", "村莊", "村庄"),
    _c("Woodcutter", 3, [ACTION], "+1 Buy, +$2.", "伐木工", "伐木工"),
    _c("Workshop", 3, [ACTION], "Gain a card costing up to $4.", "工作室", "工作室"),
    _c(
        "Bureaucrat",
        4,
        [ACTION, ATTACK],
        "Gain a Silver card; put it on top of your deck. Each other player reveals a Victory card from "
        "his hand and puts it on his deck (or reveals a hand with no Victory cards).",
        "官員",
        "官员",
    ),
    _c("Feast", 4, [ACTION], "Trash this card. Gain a card costing up to $5.", "宴會", "宴会"),
    _c("Gardens", 4, [VICTORY], "Worth 1 VP for every 10 cards in your deck (rounded down).", "花園", "花园"),
    _c(
        "Militia",
        4,
        [ACTION, ATTACK],
        "+$2. Each other player discards down to 3 cards in his hand.",
        "義勇軍",
        "义勇军",
    ),
    _c("Moneylender", 4, [ACTION], "Trash a Copper from your hand. If you do, +$3.", "錢莊", "钱庄"),
    _c(
        "Remodel",
        4,
        [ACTION],
        "Trash a card from your hand. Gain a card costing up to $2 more than the trashed card.",
        "重建",
        "重建",
    ),
    _c("Smithy", 4, [ACTION], "+3 Cards.", "鐵匠", "铁匠"),
    _c(
        "Spy",
        4,
        [ACTION, ATTACK],
        "+1 Card, +1 Action. Each player (including you) reveals the top card of his deck and either "
        "discards it or puts it back, your choice.",
        "間諜",
        "间谍",
    ),
    _c(
        "Thief",
        4,
        [ACTION, ATTACK],
        "Each other player reveals the top 2 cards of his deck. If they revealed any Treasure cards, they "
        "trash one of them that you choose. You may gain any or all of these trashed cards. They discard "
        "the other revealed cards.",
        "小偷",
        "小偷",
    ),
    _c("Throne Room", 4, [ACTION], "Choose an Action card in your hand. Play it twice.", "王座", "王座"),
    _c("Council Room", 5, [ACTION], "+4 Cards, +1 Buy. Each other player draws a card.", "議事廳", "议事厅"),
    _c("Festival", 5, [ACTION], "+2 Actions, +1 Buy, +$2.", "慶典", "庆典"),
    _c("Laboratory", 5, [ACTION], "+2 Cards, +1 Action.", "研究室", "研究室"),
    _c(
        "Library",
        5,
        [ACTION],
        "Draw until you have 7 cards in hand. You may set aside any Action cards drawn this way, as you "
        "draw them; discard the set aside cards after you finish drawing.",
        "圖書館",
        "图书馆",
    ),
    _c("Market", 5, [ACTION], "+1 Card, +1 Action, +1 Buy, +$1.", "市集", "市集"),
    _c(
        "Mine",
        5,
        [ACTION],
        "Trash a Treasure card from your hand. Gain a Treasure card costing up to $3 more; put it into your hand.",
        "礦坑",
        "矿坑",
    ),
    _c("Witch", 5, [ACTION, ATTACK], "+2 Cards. Each other player gains a Curse card.", "女巫", "女巫"),
    _c(
        "Adventurer",
        6,
        [ACTION],
        "Reveal cards from your deck until you reveal 2 Treasure cards. Put those Treasure cards in your "
        "hand and discard the other revealed cards.",
        "冒險者",
        "冒险者",
    ),
]

#: name -> Card, for every card of the set.
CARDS: dict[str, Card] = {c.name: c for c in _ALL}

#: The seven basic supply piles, in display order.
BASIC_CARDS: list[str] = ["Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"]

#: The 25 kingdom cards, by cost then name.
KINGDOM_CARDS: list[str] = sorted((c.name for c in _ALL if c.name not in BASIC_CARDS), key=lambda n: (CARDS[n].cost, n))

#: The recommended kingdoms of the first-edition rulebook (rules section 11).
RECOMMENDED_SETS: dict[str, list[str]] = {
    "First Game": [
        "Cellar",
        "Market",
        "Militia",
        "Mine",
        "Moat",
        "Remodel",
        "Smithy",
        "Village",
        "Woodcutter",
        "Workshop",
    ],
    "Big Money": [
        "Adventurer",
        "Bureaucrat",
        "Chancellor",
        "Chapel",
        "Feast",
        "Laboratory",
        "Market",
        "Mine",
        "Moneylender",
        "Throne Room",
    ],
    "Interaction": [
        "Bureaucrat",
        "Chancellor",
        "Council Room",
        "Festival",
        "Library",
        "Militia",
        "Moat",
        "Spy",
        "Thief",
        "Village",
    ],
    "Size Distortion": [
        "Cellar",
        "Chapel",
        "Feast",
        "Gardens",
        "Laboratory",
        "Thief",
        "Village",
        "Witch",
        "Woodcutter",
        "Workshop",
    ],
    "Village Square": [
        "Bureaucrat",
        "Cellar",
        "Festival",
        "Library",
        "Market",
        "Remodel",
        "Smithy",
        "Throne Room",
        "Village",
        "Woodcutter",
    ],
}

# Fast lookups for the hot path (a set membership beats a property call).
ACTIONS = frozenset(n for n, c in CARDS.items() if c.is_action)
TREASURES = frozenset(n for n, c in CARDS.items() if c.is_treasure)
VICTORIES = frozenset(n for n, c in CARDS.items() if c.is_victory)
ATTACKS = frozenset(n for n, c in CARDS.items() if c.is_attack)
COST: dict[str, int] = {n: c.cost for n, c in CARDS.items()}
COINS: dict[str, int] = {n: c.coins for n, c in CARDS.items()}
#: Card texts in Chinese (Traditional: the Taiwanese edition's terms of rules
#: section 14; Simplified: the same text converted character by character).
CARD_TEXT: dict[str, dict[str, str]] = {
    "zh-hant": {
        "Copper": "$1",
        "Silver": "$2",
        "Gold": "$3",
        "Estate": "1 分",
        "Duchy": "3 分",
        "Province": "6 分",
        "Curse": "-1 分",
        "Cellar": "+1 行動。棄掉任意張手牌，每棄一張就抽一張牌。",
        "Chapel": "從手牌中將至多 4 張牌移出遊戲。",
        "Moat": "+2 張牌。當其他玩家打出攻擊牌時，你可以從手牌中展示這張牌；若你這麼做，你不受該攻擊影響。",
        "Chancellor": "+$2。你可以立即將你的整個牌庫放入棄牌堆。",
        "Village": "+1 張牌，+2 行動。",
        "Woodcutter": "+1 購買，+$2。",
        "Workshop": "獲得一張費用至多 $4 的牌。",
        "Bureaucrat": "獲得一張銀幣，放在你的牌庫頂。每位其他玩家從手牌展示一張分數牌並放到自己的牌庫頂（沒有分數牌的玩家展示手牌）。",  # noqa: E501 (card text)
        "Feast": "將這張牌移出遊戲。獲得一張費用至多 $5 的牌。",
        "Gardens": "你每擁有 10 張牌（無條件捨去）值 1 分。",
        "Militia": "+$2。每位其他玩家將手牌棄到剩下 3 張。",
        "Moneylender": "從手牌中將一張銅幣移出遊戲。若你這麼做，+$3。",
        "Remodel": "從手牌中將一張牌移出遊戲。獲得一張費用至多比它多 $2 的牌。",
        "Smithy": "+3 張牌。",
        "Spy": "+1 張牌，+1 行動。每位玩家（包括你）展示牌庫頂的牌，由你決定將它棄掉或放回。",
        "Thief": "每位其他玩家展示牌庫頂的 2 張牌。若展示了錢幣牌，他們將其中一張由你選擇的錢幣牌移出遊戲。你可以獲得任意張這些被移出遊戲的牌。他們棄掉其他展示的牌。",  # noqa: E501 (card text)
        "Throne Room": "從手牌中選擇一張行動牌，打出它兩次。",
        "Council Room": "+4 張牌，+1 購買。每位其他玩家抽一張牌。",
        "Festival": "+2 行動，+1 購買，+$2。",
        "Laboratory": "+2 張牌，+1 行動。",
        "Library": "抽牌直到手牌有 7 張。以此抽到的行動牌可以在抽到時放在一旁；抽完後棄掉放在一旁的牌。",
        "Market": "+1 張牌，+1 行動，+1 購買，+$1。",
        "Mine": "從手牌中將一張錢幣牌移出遊戲。獲得一張費用至多比它多 $3 的錢幣牌，放入手牌。",
        "Witch": "+2 張牌。每位其他玩家獲得一張詛咒。",
        "Adventurer": "從牌庫展示牌直到展示出 2 張錢幣牌。將這些錢幣牌放入手牌，棄掉其他展示的牌。",
    },
    "zh-hans": {
        "Copper": "$1",
        "Silver": "$2",
        "Gold": "$3",
        "Estate": "1 分",
        "Duchy": "3 分",
        "Province": "6 分",
        "Curse": "-1 分",
        "Cellar": "+1 行动。弃掉任意张手牌，每弃一张就抽一张牌。",
        "Chapel": "从手牌中将至多 4 张牌移出游戏。",
        "Moat": "+2 张牌。当其他玩家打出攻击牌时，你可以从手牌中展示这张牌；若你这么做，你不受该攻击影响。",
        "Chancellor": "+$2。你可以立即将你的整个牌库放入弃牌堆。",
        "Village": "+1 张牌，+2 行动。",
        "Woodcutter": "+1 购买，+$2。",
        "Workshop": "获得一张费用至多 $4 的牌。",
        "Bureaucrat": "获得一张银币，放在你的牌库顶。每位其他玩家从手牌展示一张分数牌并放到自己的牌库顶（没有分数牌的玩家展示手牌）。",  # noqa: E501 (card text)
        "Feast": "将这张牌移出游戏。获得一张费用至多 $5 的牌。",
        "Gardens": "你每拥有 10 张牌（无条件舍去）值 1 分。",
        "Militia": "+$2。每位其他玩家将手牌弃到剩下 3 张。",
        "Moneylender": "从手牌中将一张铜币移出游戏。若你这么做，+$3。",
        "Remodel": "从手牌中将一张牌移出游戏。获得一张费用至多比它多 $2 的牌。",
        "Smithy": "+3 张牌。",
        "Spy": "+1 张牌，+1 行动。每位玩家（包括你）展示牌库顶的牌，由你决定将它弃掉或放回。",
        "Thief": "每位其他玩家展示牌库顶的 2 张牌。若展示了钱币牌，他们将其中一张由你选择的钱币牌移出游戏。你可以获得任意张这些被移出游戏的牌。他们弃掉其他展示的牌。",  # noqa: E501 (card text)
        "Throne Room": "从手牌中选择一张行动牌，打出它两次。",
        "Council Room": "+4 张牌，+1 购买。每位其他玩家抽一张牌。",
        "Festival": "+2 行动，+1 购买，+$2。",
        "Laboratory": "+2 张牌，+1 行动。",
        "Library": "抽牌直到手牌有 7 张。以此抽到的行动牌可以在抽到时放在一旁；抽完后弃掉放在一旁的牌。",
        "Market": "+1 张牌，+1 行动，+1 购买，+$1。",
        "Mine": "从手牌中将一张钱币牌移出游戏。获得一张费用至多比它多 $3 的钱币牌，放入手牌。",
        "Witch": "+2 张牌。每位其他玩家获得一张诅咒。",
        "Adventurer": "从牌库展示牌直到展示出 2 张钱币牌。将这些钱币牌放入手牌，弃掉其他展示的牌。",
    },
}
