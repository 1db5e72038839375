"""Model sizes: the Nucleotide Transformer 2.5B configuration, and small ones of the same architecture.

Every size is an ``EsmForMaskedLM`` built from its configuration with random weights; no
weights are ever downloaded. The 2.5B configuration is the public multi-species one
(see ``../shared/measure-notes.md``): 32 pre-LayerNorm layers of width 2560, 20 heads,
learned absolute positions, a 4105-token vocabulary, and an untied output layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from measure.errors import UnknownNameError

VOCAB_SIZE = 4105
MAX_POSITIONS = 1002
PAD_ID = 1
MASK_ID = 2


@dataclass(frozen=True)
class ModelSize:
    """The dimensions of one size of the architecture."""

    name: str
    hidden_size: int
    num_layers: int
    num_heads: int
    intermediate_size: int
    description: str

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_heads

    @property
    def max_tokens(self) -> int:
        """Longest input, CLS included: positions start after the padding index."""
        return MAX_POSITIONS - PAD_ID - 1

    def parameter_count(self) -> int:
        """Parameters of the built ``EsmForMaskedLM``, by hand (tests check it against the built model)."""
        h, i, v = self.hidden_size, self.intermediate_size, VOCAB_SIZE
        embeddings = v * h + MAX_POSITIONS * h
        layer = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 2 * (2 * h)
        final_norm = 2 * h
        contact_head = self.num_layers * self.num_heads + 1
        lm_head = (h * h + h) + 2 * h + h * v + v
        return embeddings + self.num_layers * layer + final_norm + contact_head + lm_head

    def lora_parameter_count(self, rank: int = 16) -> int:
        """Trainable parameters of LoRA with this rank on query, key and value."""
        return self.num_layers * 3 * 2 * rank * self.hidden_size


SIZES: dict[str, ModelSize] = {
    size.name: size
    for size in (
        ModelSize("nt-2-5b", 2560, 32, 20, 10240, "Nucleotide Transformer 2.5B (2,547,801,226 parameters)"),
        ModelSize("nt-small", 256, 4, 4, 1024, "a small model of the same architecture, for quick checks"),
        ModelSize("nt-tiny", 64, 2, 4, 256, "a tiny model of the same architecture, for tests and smoke runs"),
    )
}


def get_size(name: str) -> ModelSize:
    """The size called ``name``, or an error naming the known ones."""
    try:
        return SIZES[name]
    except KeyError:
        raise UnknownNameError("model", name, list(SIZES)) from None


def esm_config(size: ModelSize, attn_implementation: str = "sdpa") -> Any:
    """The transformers ``EsmConfig`` for ``size`` (transformers is imported here, not at module load)."""
    from transformers import EsmConfig

    config = EsmConfig(
        vocab_size=VOCAB_SIZE,
        hidden_size=size.hidden_size,
        num_hidden_layers=size.num_layers,
        num_attention_heads=size.num_heads,
        intermediate_size=size.intermediate_size,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        max_position_embeddings=MAX_POSITIONS,
        position_embedding_type="absolute",
        layer_norm_eps=1e-12,
        emb_layer_norm_before=False,
        token_dropout=True,
        tie_word_embeddings=False,
        pad_token_id=PAD_ID,
        mask_token_id=MASK_ID,
        is_folding_model=False,
    )
    config._attn_implementation = attn_implementation
    return config
