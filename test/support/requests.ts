/**
 * DynamoGraphDeploymentRequests the tests build as construct props instead of retyping them.
 */
import { DynamoGraphDeploymentRequestProps, GpuSku, RequestBackend, SearchStrategy } from '../../src';

/**
 * The request of the operator's golden `dgdr/deployment` (internal/controller/testdata/dgdr/deployment
 * in ai-dynamo/dynamo's deploy/operator) as construct props: its model, profiler image, rapid search
 * with autoApply, manual hardware, workload, SLA, mocker workers and the override turning Grove off.
 * Without a namespace: a test sets it, or the chart gives it.
 */
export const GOLDEN_DEPLOYMENT_REQUEST: DynamoGraphDeploymentRequestProps = {
  metadata: { name: 'aic-deployment' },
  model: 'Qwen/Qwen3-0.6B',
  backend: RequestBackend.VLLM,
  image: 'test.invalid/profiler:1.4.0-test',
  searchStrategy: SearchStrategy.RAPID,
  autoApply: true,
  hardware: { gpuSku: GpuSku.H100_SXM, vramMb: 81920, numGpusPerNode: 8, totalGpus: 8, interconnect: 'nvlink', rdma: false },
  workload: { isl: 4000, osl: 1000 },
  sla: { ttft: 2000, itl: 30 },
  features: { mocker: true },
  overrides: {
    dgd: { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { annotations: { 'nvidia.com/enable-grove': 'false' } } },
  },
};
