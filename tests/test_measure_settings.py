"""measure.config and measure.settings: model sizes, knobs, the sweep's order, DeepSpeed's configuration."""

from __future__ import annotations

import pytest

from measure.config import SIZES, get_size
from measure.errors import MeasureError
from measure.settings import (
    AdamWImpl,
    Precision,
    Setting,
    Stage,
    WeightUpdate,
    interleave,
    parse_assignment,
    parse_knob,
    sweep,
)
from measure.step import attention_for, deepspeed_config

pytestmark = pytest.mark.torch  # runs torch models on the CPU: left out of make test-fast


def test_parameter_count_by_hand() -> None:
    size = get_size("nt-2-5b")
    assert size.parameter_count() == 2_547_801_226
    assert size.lora_parameter_count() == 7_864_320
    assert size.head_dim == 128 and size.max_tokens == 1000


@pytest.mark.parametrize("name", sorted(SIZES))
def test_built_model_has_the_hand_counted_parameters(name: str) -> None:
    pytest.importorskip("transformers")
    import torch

    from measure.step import build_model, parameter_counts

    setting = Setting(name, Stage.CHECKPOINTING, 1000, 16)
    model, attention = build_model(setting, "meta")
    assert parameter_counts(model) == (SIZES[name].parameter_count(),) * 2
    assert attention == "sdpa-flash-cpu"
    assert model.lm_head.decoder.weight is not model.esm.embeddings.word_embeddings.weight  # untied
    assert all(p.dtype == torch.bfloat16 for p in model.parameters())
    lora, _ = build_model(setting.with_knobs({"update_mode": "lora-r16-qkv"}), "meta")
    total, trainable = parameter_counts(lora)
    assert trainable == SIZES[name].lora_parameter_count()
    assert total == SIZES[name].parameter_count() + trainable


def test_unknown_model_suggests_one() -> None:
    with pytest.raises(MeasureError, match="unknown model 'nt-2.5b'") as caught:
        get_size("nt-2.5b")
    assert caught.value.hint is not None and "nt-2-5b" in caught.value.hint


def test_stages_are_cumulative() -> None:
    assert [(s.flash, s.checkpointing, s.deepspeed) for s in Stage] == [
        (False, False, False), (True, False, False), (True, True, False), (True, True, True)]
    assert attention_for(Stage.BASELINE, "cuda") == ("eager", "eager")
    assert attention_for(Stage.DEEPSPEED, "cpu") == ("sdpa", "sdpa-flash-cpu")


def test_knobs_that_do_not_apply_are_dropped() -> None:
    plain = Setting("nt-tiny", Stage.CHECKPOINTING, 1000, 16)
    assert plain.knobs() == {"update_mode": "full", "precision": "bf16-weights-fp32-adam", "length_unit": "tokens"}
    torch_adamw = plain.with_knobs({"precision": "pure-bf16", "adamw_impl": "fused"})
    assert torch_adamw.knobs()["adamw_impl"] == "fused"
    deepspeed = Setting("nt-tiny", Stage.DEEPSPEED, 1000, 16, adamw_impl=AdamWImpl.FUSED, precision=Precision.PURE_BF16)
    assert "adamw_impl" not in deepspeed.knobs()
    assert deepspeed.knobs()["reduce_bucket_size"] == 500_000_000 and deepspeed.knobs()["overlap_comm"] is False


def test_sweep_is_ordered_by_plausibility_and_has_no_duplicates() -> None:
    base = Setting("nt-2-5b", Stage.CHECKPOINTING, 1000, 16)
    settings = sweep(base, [("precision", ["bf16-weights-fp32-adam", "fp32-autocast-bf16", "pure-bf16"]),
                            ("update_mode", ["full", "lora-r16-qkv"]), ("adamw_impl", ["foreach", "fused"]),
                            ("length_unit", ["tokens", "base-pairs"])])
    # bf16 weights with fp32 moments run our own AdamW: its adamw_impl variants collapse into one.
    assert len(settings) == len(set(settings)) == (1 + 2 + 2) * 2 * 2
    first, second, third = settings[:3]
    assert (first.precision, first.update_mode, first.length_unit) == (
        Precision.BF16_WEIGHTS_FP32_ADAM, WeightUpdate.FULL, "tokens")
    assert second.precision is Precision.FP32_AUTOCAST_BF16 and second.update_mode is WeightUpdate.FULL
    assert third.update_mode is WeightUpdate.LORA_R16_QKV and third.precision is Precision.BF16_WEIGHTS_FP32_ADAM
    ranks = [sum([["bf16-weights-fp32-adam", "fp32-autocast-bf16", "pure-bf16"].index(s.precision.value),
                  ["full", "lora-r16-qkv"].index(s.update_mode.value),
                  ["tokens", "base-pairs"].index(s.length_unit.value),
                  ["foreach", "fused"].index((s.adamw_impl or AdamWImpl.FOREACH).value)]) for s in settings]
    assert ranks == sorted(ranks)


def test_interleave_takes_turns() -> None:
    a = [Setting("nt-tiny", Stage.CHECKPOINTING, 8, 1, precision=p) for p in Precision]
    b = [Setting("nt-tiny", Stage.DEEPSPEED, 8, 1)]
    assert interleave(a, b) == [a[0], b[0], a[1], a[2]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("precision=pure-bf16", ("precision", "pure-bf16")), ("reduce_bucket_size=6_553_600", ("reduce_bucket_size",
                                                                                           6553600)),
     ("overlap_comm=True", ("overlap_comm", True)), (" update_mode = full ", ("update_mode", "full"))],
)
def test_parse_assignment(text: str, expected: tuple[str, object]) -> None:
    assert parse_assignment(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("precision", "not a knob setting"), ("precison=pure-bf16", "did you mean 'precision'"),
     ("precision=bf16", "not one of bf16-weights-fp32-adam"), ("reduce_bucket_size=0", "not a positive whole"),
     ("overlap_comm=maybe", "not true or false"), ("precision=pure_bf16", "(did you mean 'pure-bf16'?)")],
)
def test_bad_knobs_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(MeasureError) as caught:
        parse_assignment(text)
    assert message in f"{caught.value.message} {caught.value.hint}"


def test_deepspeed_configuration_per_precision() -> None:
    setting = Setting("nt-2-5b", Stage.DEEPSPEED, 1000, 16, reduce_bucket_size=6_553_600, overlap_comm=True)
    config = deepspeed_config(setting)
    zero = config["zero_optimization"]
    assert zero["stage"] == 2 and zero["offload_optimizer"]["device"] == "cpu"
    assert (zero["reduce_bucket_size"], zero["allgather_bucket_size"], zero["overlap_comm"]) == (6_553_600, 5e8, True)
    assert config["train_micro_batch_size_per_gpu"] == 16 and config["bf16"] == {"enabled": True}
    assert deepspeed_config(setting.with_knobs({"precision": "pure-bf16"}))["bf16"]["bf16_optimizer_states"] is True
    autocast = deepspeed_config(setting.with_knobs({"precision": "fp32-autocast-bf16"}))
    assert "bf16" not in autocast and autocast["torch_autocast"] == {"enabled": True, "dtype": "bfloat16"}


def test_id_tokens_are_short_and_id_safe() -> None:
    setting = Setting("nt-2-5b", Stage.DEEPSPEED, 1000, 16, reduce_bucket_size=6_553_600, overlap_comm=True,
                      update_mode=WeightUpdate.LORA_R16_QKV, length_unit="base-pairs")
    assert setting.id_token() == "lora-bf16w-fp32adam-bp-rb6553600-ag500m-overlap"
    assert parse_knob("precision", "pure-bf16") is Precision.PURE_BF16
