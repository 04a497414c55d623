/** One look at a connection's statistics. */
export interface QualitySample {
  at: number;
  packetsReceived: number;
  packetsLost: number;
  bytesReceived: number;
  roundTripTime: number | null;
  localCandidateType: string | null;
  remoteCandidateType: string | null;
}

export type QualityLevel = 'good' | 'fair' | 'poor';

export interface NetworkQuality {
  level: QualityLevel;
  /** Lost packets, in percent, over the last interval. */
  lossPercent: number;
  roundTripMs: number | null;
  kbps: number;
}

/** The figures of the connection's selected candidate pair and its incoming streams. */
export async function sampleStats(pc: RTCPeerConnection): Promise<QualitySample> {
  const report = await pc.getStats();
  let packetsReceived = 0;
  let packetsLost = 0;
  let bytesReceived = 0;
  let roundTripTime: number | null = null;
  let localCandidateType: string | null = null;
  let remoteCandidateType: string | null = null;
  const byId = new Map<string, Record<string, unknown>>();
  report.forEach((stat: Record<string, unknown>) => byId.set(stat['id'] as string, stat));
  for (const stat of byId.values()) {
    if (stat['type'] === 'inbound-rtp') {
      packetsReceived += Number(stat['packetsReceived'] ?? 0);
      packetsLost += Math.max(0, Number(stat['packetsLost'] ?? 0));
      bytesReceived += Number(stat['bytesReceived'] ?? 0);
    }
    if (stat['type'] === 'candidate-pair' && stat['nominated'] && stat['state'] === 'succeeded') {
      if (typeof stat['currentRoundTripTime'] === 'number') roundTripTime = stat['currentRoundTripTime'];
      localCandidateType = (byId.get(stat['localCandidateId'] as string)?.['candidateType'] as string) ?? null;
      remoteCandidateType = (byId.get(stat['remoteCandidateId'] as string)?.['candidateType'] as string) ?? null;
    }
  }
  return {
    at: performance.now(),
    packetsReceived,
    packetsLost,
    bytesReceived,
    roundTripTime,
    localCandidateType,
    remoteCandidateType,
  };
}

/**
 * The quality between two samples: nothing (null) until two samples with traffic exist, so the indicator never
 * shows a verdict it has not measured. Poor above 8 % loss or 400 ms round trip; good under 2 % and 150 ms.
 */
export function qualityBetween(previous: QualitySample | null, current: QualitySample): NetworkQuality | null {
  if (!previous) return null;
  const received = current.packetsReceived - previous.packetsReceived;
  const lost = current.packetsLost - previous.packetsLost;
  const seconds = (current.at - previous.at) / 1000;
  if (received + lost <= 0 || seconds <= 0) return null;
  const lossPercent = (100 * Math.max(0, lost)) / (received + Math.max(0, lost));
  const roundTripMs = current.roundTripTime === null ? null : Math.round(current.roundTripTime * 1000);
  const kbps = Math.round(((current.bytesReceived - previous.bytesReceived) * 8) / 1000 / seconds);
  const rtt = roundTripMs ?? 0;
  const level: QualityLevel = lossPercent > 8 || rtt > 400 ? 'poor' : lossPercent < 2 && rtt < 150 ? 'good' : 'fair';
  return { level, lossPercent: Math.round(lossPercent * 10) / 10, roundTripMs, kbps };
}
