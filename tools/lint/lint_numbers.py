"""The numbers rule of ``make lint-po``: a translation keeps the source's numbers.

``number``  the numbers written in digits, compared as multisets both ways: each one of the msgid once
            in the msgstr (0-12 may be spelled out: "zeros", "one"), and no number the msgid lacks
            (a digit the msgid writes as a Chinese numeral, 两个 or 三维, is not added); and the numbers
            spelled out in English ("zero" to "twenty", "a dozen", "twice"): one that the msgid has
            nowhere (as digits or a Chinese numeral) while a number the msgid states (两个, 三维, 2) is
            not in the msgstr in any form is a changed number (两个进程 -> "three ranks")
"""

import re
from collections import Counter

from tools.lint.entry import Entry
from tools.lint.po_markup import NUMBER, Markup, Problem


def problems(entry: Entry) -> list[Problem]:
    """The numbers ``entry``'s translation changed, added or lost."""
    return number_problems(entry.source, entry.translation)


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve"]


def spelled_out(number: str, text: str) -> bool:
    """'0' may be written 'zero'/'zeros', '1' 'one'/'ones' ... in English prose."""
    return number.isdigit() and int(number) < len(NUMBER_WORDS) and bool(
        re.search(rf"(?<![A-Za-z]){NUMBER_WORDS[int(number)]}", text, re.I))


# A Chinese numeral that stands for a digit: 两个, 三维, 第二个, 一维, 零维; a bare 一 is mostly "a".
CHINESE_DIGITS = {"零": "0", "一": "1", "两": "2", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6",
                  "七": "7", "八": "8", "九": "9", "十": "10"}
CHINESE_NUMERAL = re.compile(r"(?<=第)([一二三四五六七八九十])|([零一])(?=维)|(?<=[验证例])(一)(?=[：:])"
                             r"|([两二三四五六七八九十])(?=[个维次种层步行列组倍类阶项份轮批])")


def chinese_numerals(text: str) -> list[str]:
    return [CHINESE_DIGITS[next(g for g in m.groups() if g)] for m in CHINESE_NUMERAL.finditer(text)]


# Numbers spelled out in English prose. Not numbers: "one of" (其中一个, partitive), "one another", "no one",
# "one by one" and a word inside a longer one or an identifier (one_hot, zero_grad).
SPELLED_VALUES = {word: value for value, word in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])}
SPELLED_VALUES.update(twice=2, dozen=12)
# What renders a number besides its digits and its word: ordinals (第二 -> "second"), both, a pair, once...
RENDERINGS = dict(SPELLED_VALUES, both=2, pair=2, double=2, once=1, single=1, half=2,
                  **{word: value for value, word in enumerate(
                      ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                       "ninth", "tenth", "eleventh", "twelfth"])})


def _words(table: dict[str, int]) -> re.Pattern:
    alternatives = "|".join(sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![\w'-])({alternatives})(?![\w'])(?!\s+(?:of|another|by\s+one)\b)", re.I)


SPELLED_NUMBER = _words(SPELLED_VALUES)
RENDERED_NUMBER = _words(RENDERINGS)
NOT_A_NUMBER = re.compile(r"\bno\s+one\b", re.I)
CHINESE_NUMBER = re.compile(r"[零〇一二两俩三四五六七八九十]+")


def chinese_values(text: str) -> set[int]:
    """Every number a run of Chinese numerals can stand for (十二 -> 12, 两 -> 2, 一千 -> 1, 二十 -> 20)."""
    values = set()
    for run in CHINESE_NUMBER.findall(text):
        if "十" in run:
            before, _, after = run.partition("十")
            values.add(10 * (int(CHINESE_DIGITS.get(before[-1], "1")) if before else 1)
                       + (int(CHINESE_DIGITS.get(after[0], "0")) if after and after[0] != "十" else 0))
        values.update(int(CHINESE_DIGITS[c]) for c in run if c in CHINESE_DIGITS and c != "十")
        values.update({"俩": 2, "〇": 0}.get(c, -1) for c in run)
    return values - {-1}


def whole_numbers(numbers) -> set[int]:
    return {int(float(n)) for n in numbers if float(n).is_integer()}


def spelled_number_problems(src: Markup, dst: Markup) -> list[Problem]:
    """A number spelled out in English that the source has nowhere, where a number the source states is gone.

    Both halves are needed: "two different batches" for 不同的批 adds a word, but the source states no
    number that went missing; 两个进程 -> "three ranks" adds 3 and loses 2.
    """
    stated = whole_numbers(src.numbers) | {int(n) for n in chinese_numerals(src.prose)}
    prose = NOT_A_NUMBER.sub(" ", dst.prose)
    rendered = whole_numbers(dst.numbers + NUMBER.findall(" ".join(dst.code + dst.math)))
    rendered |= {RENDERINGS[m.group(1).lower()] for m in RENDERED_NUMBER.finditer(prose)}
    gone = sorted(stated - rendered)
    if not gone:
        return []
    anywhere = whole_numbers(src.numbers + NUMBER.findall(" ".join(src.code + src.math))) | chinese_values(src.prose)
    found = []
    for match in SPELLED_NUMBER.finditer(prose):
        value = SPELLED_VALUES[match.group(1).lower()]
        if value not in anywhere:
            found.append(Problem("number", f"writes {match.group(1)!r} ({value}), a number the source does not "
                                           f"have, and leaves out the source's {', '.join(map(str, gone))}",
                                 "msgstr", dst.at(match.start()), match.group(1).lower()))
    return found


def last_offsets(markup: Markup, number: str, how_many: int) -> list[int]:
    """Where the last ``how_many`` uses of ``number`` are (the unmatched ones, most likely)."""
    offsets = [o for n, o in zip(markup.numbers, markup.number_offsets) if n == number]
    return offsets[-how_many:] if how_many else []


def number_problems(src: Markup, dst: Markup) -> list[Problem]:
    """Digits compared as multisets: 'all 4 samples' -> 'all 5 samples' fails even if a 4 is elsewhere."""
    src_left = Counter(src.numbers)
    dst_left = Counter(dst.numbers)
    common = src_left & dst_left
    src_left -= common
    dst_left -= common
    in_code = Counter(NUMBER.findall(" ".join(dst.code)))  # `0` in a code span keeps the 0
    found = []
    for number in sorted(src_left, key=str):
        unmatched = 0
        for _ in range(src_left[number]):
            if in_code[number]:
                in_code[number] -= 1
            elif not spelled_out(number, dst.prose):
                unmatched += 1
        for offset in last_offsets(src, number, unmatched):
            found.append(Problem("number", f"number {number!r} is missing or altered", "msgid", offset, number))
    numerals = Counter(chinese_numerals(src.prose))
    for number in sorted(dst_left, key=str):
        unmatched = 0
        for _ in range(dst_left[number]):
            if numerals[number]:
                numerals[number] -= 1
            else:
                unmatched += 1
        for offset in last_offsets(dst, number, unmatched):
            found.append(Problem("number", f"adds number {number!r} that the source does not have", "msgstr",
                                 offset, number))
    return found + spelled_number_problems(src, dst)
