"""Synthetic DNA and its tokenization, as the Nucleotide Transformer reads it.

The vocabulary is rebuilt in code, never downloaded: four special tokens (unk, pad, mask,
cls), the 4,096 6-mers over A, T, C, G in ``itertools.product`` order, then the single
nucleotides A, T, C, G and N, which makes the model's 4,105 entries. A sequence reads as
CLS, then 6-mers from its start, then the remainder one nucleotide at a time (the
published tokenizer's rule; an N always stands alone).

The paper's generator is unstated beyond "uniform random, seed 42"; this one draws each
base uniformly from ``random.Random(seed)``, which gives the same sequences on every
platform and Python version.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from measure.config import MASK_ID, PAD_ID, VOCAB_SIZE
from measure.errors import MeasureError

NUCLEOTIDES = ("A", "T", "C", "G")
K = 6
SPECIAL_TOKENS = ("<unk>", "<pad>", "<mask>", "<cls>")
VOCABULARY: tuple[str, ...] = (
    SPECIAL_TOKENS + tuple("".join(kmer) for kmer in itertools.product(NUCLEOTIDES, repeat=K)) + NUCLEOTIDES + ("N",)
)
TOKEN_IDS: dict[str, int] = {token: index for index, token in enumerate(VOCABULARY)}
UNK_ID, CLS_ID = TOKEN_IDS["<unk>"], TOKEN_IDS["<cls>"]
FIRST_REGULAR_ID = len(SPECIAL_TOKENS)
IGNORE_INDEX = -100
MASK_PROBABILITY = 0.15

assert len(VOCABULARY) == VOCAB_SIZE and TOKEN_IDS["<pad>"] == PAD_ID and TOKEN_IDS["<mask>"] == MASK_ID


class LengthUnit(StrEnum):
    """What a stated sequence length counts."""

    TOKENS = "tokens"
    """Tokens fed to the model, CLS included (1000 tokens: CLS and 999 6-mers, 5,994 base pairs)."""
    BASE_PAIRS = "base-pairs"
    """Base pairs of DNA before tokenization (1000 base pairs: CLS, 166 6-mers and 4 nucleotides, 171 tokens)."""


def tokenize(sequence: str) -> list[int]:
    """Token ids of one DNA sequence: CLS, 6-mers, the remainder as single nucleotides; N alone."""
    ids = [CLS_ID]
    for index, chunk in enumerate(sequence.split("N")):
        if index:
            ids.append(TOKEN_IDS["N"])
        whole = len(chunk) - len(chunk) % K
        ids.extend(TOKEN_IDS.get(chunk[i : i + K], UNK_ID) for i in range(0, whole, K))
        ids.extend(TOKEN_IDS.get(base, UNK_ID) for base in chunk[whole:])
    return ids


def base_pairs_for(length: int, unit: LengthUnit) -> int:
    """Base pairs to generate so that a sequence has ``length`` in ``unit``."""
    if length < 1:
        raise MeasureError(f"sequence length must be at least 1, not {length}", expected="at least 1", found=length)
    return K * (length - 1) if unit is LengthUnit.TOKENS else length


def tokens_for(length: int, unit: LengthUnit) -> int:
    """Tokens per sequence, CLS included, for a stated ``length`` in ``unit``."""
    base_pairs = base_pairs_for(length, unit)
    return 1 + base_pairs // K + base_pairs % K


def random_dna(rng: random.Random, base_pairs: int) -> str:
    """``base_pairs`` bases drawn uniformly from A, C, G, T."""
    return "".join(NUCLEOTIDES[rng.getrandbits(2)] for _ in range(base_pairs))


@dataclass(frozen=True)
class TokenBatch:
    """A masked-language-model batch as plain lists (torch-free, so it can be tested anywhere)."""

    sequences: list[str]
    input_ids: list[list[int]]
    labels: list[list[int]]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.input_ids), len(self.input_ids[0])

    def tensors(self, device: Any = "cpu") -> tuple[Any, Any]:
        """(input_ids, labels) as int64 tensors on ``device``."""
        import torch

        return (torch.tensor(self.input_ids, dtype=torch.long, device=device),
                torch.tensor(self.labels, dtype=torch.long, device=device))


def make_batch(batch_size: int, length: int, unit: LengthUnit | str = LengthUnit.TOKENS, seed: int = 42,
               max_tokens: int | None = None) -> TokenBatch:
    """``batch_size`` random sequences of ``length`` (in ``unit``), masked BERT-style.

    15% of the positions after CLS are chosen; a chosen token becomes the mask token 80% of the
    time, a random regular token 10% and stays 10%; labels hold the original id there and
    ``IGNORE_INDEX`` elsewhere.
    """
    unit = LengthUnit(unit)
    if batch_size < 1:
        raise MeasureError(f"batch size must be at least 1, not {batch_size}", expected="at least 1", found=batch_size)
    tokens = tokens_for(length, unit)
    if max_tokens is not None and tokens > max_tokens:
        raise MeasureError(
            f"length {length} {unit.value} makes {tokens} tokens, more than the model's {max_tokens}",
            "choose a shorter length, or count the length in base pairs",
            expected=f"at most {max_tokens} tokens", found=tokens,
        )
    rng = random.Random(seed)
    sequences = [random_dna(rng, base_pairs_for(length, unit)) for _ in range(batch_size)]
    input_ids, labels = [], []
    for sequence in sequences:
        ids = tokenize(sequence)
        masked, target = ids[:1], [IGNORE_INDEX]
        for token in ids[1:]:
            if rng.random() >= MASK_PROBABILITY:
                masked.append(token)
                target.append(IGNORE_INDEX)
                continue
            draw = rng.random()
            if draw < 0.8:
                masked.append(MASK_ID)
            else:
                masked.append(rng.randrange(FIRST_REGULAR_ID, VOCAB_SIZE) if draw < 0.9 else token)
            target.append(token)
        input_ids.append(masked)
        labels.append(target)
    return TokenBatch(sequences, input_ids, labels)
