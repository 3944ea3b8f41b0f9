/** The OTLP protocols the receiver speaks (OTLP/gRPC is not served: see docs/live-capture.md). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/**
 * The variables that point an OpenTelemetry SDK's OTLP exporter at the receiver.
 * The per-signal ones are set too: an SDK reads them first, and one left over from
 * the job's environment (say, grpc to a collector) would send the spans elsewhere.
 */
export function otlpEnvironment(endpoint: string, protocol: OtlpProtocol): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
  };
}

/** http/json when the job already asks for it, otherwise http/protobuf (every SDK's HTTP default). */
export function protocolFor(env: NodeJS.ProcessEnv): OtlpProtocol {
  const asked = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'];
  return asked === 'http/json' ? 'http/json' : 'http/protobuf';
}
