import { describe, expect, it } from 'vitest';

import { qualityBetween, type QualitySample } from './network-quality.ts';

const sample = (at: number, received: number, lost: number, bytes: number, rtt: number | null): QualitySample => ({
  at,
  packetsReceived: received,
  packetsLost: lost,
  bytesReceived: bytes,
  roundTripTime: rtt,
  localCandidateType: 'host',
  remoteCandidateType: 'host',
});

describe('the network-quality indicator', () => {
  it('says nothing before it has two samples with traffic', () => {
    expect(qualityBetween(null, sample(0, 100, 0, 10_000, 0.01))).toBeNull();
    expect(qualityBetween(sample(0, 100, 0, 10_000, 0.01), sample(2000, 100, 0, 10_000, 0.01))).toBeNull();
  });

  it('is good with little loss and a short round trip, poor with heavy loss or a long one', () => {
    const first = sample(0, 1000, 0, 100_000, 0.02);
    expect(qualityBetween(first, sample(2000, 1990, 5, 350_000, 0.02))).toEqual({
      level: 'good',
      lossPercent: 0.5,
      roundTripMs: 20,
      kbps: 1000,
    });
    expect(qualityBetween(first, sample(2000, 1900, 100, 350_000, 0.02))?.level).toBe('poor');
    expect(qualityBetween(first, sample(2000, 2000, 0, 350_000, 0.5))?.level).toBe('poor');
    expect(qualityBetween(first, sample(2000, 1960, 40, 350_000, 0.2))?.level).toBe('fair');
  });
});
