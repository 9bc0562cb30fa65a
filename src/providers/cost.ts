// What a model call cost, from the catalogue prices (USD per million tokens).
import type { TokenUsage } from "../storage";
import type { ModelInfo } from "./types";

const PER_MILLION = 1_000_000;

/**
 * Cost in USD. Follows the TokenUsage convention: `input` is the uncached input, cache reads and
 * writes are billed at their own prices (the input price when none is listed), and `output`
 * already includes `reasoning` (providers bill reasoning as output), so reasoning is not added twice.
 */
export function calculateCost(info: Pick<ModelInfo, "cost">, usage: TokenUsage): number {
  const { cost } = info;
  const total =
    usage.input * cost.input +
    usage.output * cost.output +
    usage.cacheRead * (cost.cacheRead ?? cost.input) +
    usage.cacheWrite * (cost.cacheWrite ?? cost.input);
  return total / PER_MILLION;
}
