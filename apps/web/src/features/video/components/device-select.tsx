import { NativeSelect } from '@mantine/core';
import { useEffect, useState } from 'react';

type InputKind = 'audioinput' | 'videoinput';

/** The cameras and microphones of this computer, once a stream is open (before, the browser names none). */
export function useMediaDevices(stream: MediaStream | null): MediaDeviceInfo[] {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    if (stream) void navigator.mediaDevices.enumerateDevices().then(setDevices);
  }, [stream]);
  return devices;
}

/** A choice of camera or microphone, showing the one the stream uses now. */
export function DeviceSelect({
  kind,
  label,
  devices,
  stream,
  onChange,
}: {
  kind: InputKind;
  label: string;
  devices: MediaDeviceInfo[];
  stream: MediaStream | null;
  onChange: (kind: InputKind, deviceId: string) => void;
}) {
  const tracks = kind === 'audioinput' ? stream?.getAudioTracks() : stream?.getVideoTracks();
  return (
    <NativeSelect
      label={label}
      data={devices
        .filter((d) => d.kind === kind && d.deviceId)
        .map((d, i) => ({ value: d.deviceId, label: d.label || `${kind} ${i + 1}` }))}
      value={tracks?.[0]?.getSettings().deviceId ?? ''}
      onChange={(e) => onChange(kind, e.currentTarget.value)}
    />
  );
}
