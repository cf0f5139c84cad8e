/**
 * A stand-in for Bitfocus Companion's module host, for the Companion module's adapter test: it starts the built module
 * (companion/dist/main.cjs) as a child process with an IPC channel and the environment Companion gives a module
 * (MODULE_MANIFEST, CONNECTION_ID, VERIFICATION_TOKEN), and speaks the host side of `@companion-module/base`'s
 * `nodejs-ipc` API: `{direction: 'call' | 'response', name, payload (JSON text), callbackId}`. It accepts the module's
 * registration, keeps what the module sends (status, variable definitions and values, action, feedback and preset
 * definitions, feedback values) and calls the module (`init`, `updateFeedbacks`, `executeAction`, `updateConfigAndLabel`, `destroy`).
 */
import { fork, type ChildProcess } from 'node:child_process';

interface CallMessage {
  direction: 'call';
  name: string;
  payload?: string;
  callbackId?: number;
}
interface ResponseMessage {
  direction: 'response';
  callbackId: number;
  success: boolean;
  payload?: string;
}

/** What the module told the host so far. */
export interface HostRecord {
  /** Every `set-status`, in order. */
  statuses: { status: string; message: string | null }[];
  /** Variable values, merged (`setVariableValues` and the definitions' `newValues`). */
  variables: Record<string, unknown>;
  variableIds: string[];
  actionIds: string[];
  feedbackIds: string[];
  /** The preset buttons (as `setPresetDefinitions` sent them). */
  presets: { id: string; style?: { text: string }; steps?: { down: { actionId: string }[] }[]; feedbacks?: { feedbackId: string }[] }[];
  /** The latest value of each feedback instance, by instance id. */
  feedbacks: Record<string, unknown>;
  /** Every call by name, in order (for a look at what came). */
  calls: { name: string; payload: unknown }[];
}

/** A running module under the stand-in host. */
export interface StandInHost {
  readonly record: HostRecord;
  /** Call the module's `name` handler with `payload` and resolve with its answer (rejects on its error). */
  call<T = unknown>(name: string, payload: unknown, timeoutMs?: number): Promise<T>;
  /** Kill the module's process. */
  close(): Promise<void>;
}

/** A feedback instance as Companion hands it to the module (on button `bank1`). */
export const feedback = (id: string, feedbackId: string, options: Record<string, string>) => ({
  id,
  controlId: 'bank1',
  feedbackId,
  options,
  isInverted: false,
  disabled: false,
  upgradeIndex: null,
});
/** An action press as Companion sends it (on button `bank1`). */
export const press = (actionId: string, options: Record<string, string> = {}) => ({
  action: { id: `a-${actionId}`, controlId: 'bank1', actionId, options, disabled: false, upgradeIndex: null },
  surfaceId: undefined,
});

/**
 * Start module `entry` (a built entrypoint) with its `manifest` under the stand-in host; resolves once the module has
 * registered (before `init`).
 */
export function startModule(entry: string, manifest: string): Promise<StandInHost> {
  const child: ChildProcess = fork(entry, [], {
    env: { ...process.env, MODULE_MANIFEST: manifest, CONNECTION_ID: 'cuecast-test', VERIFICATION_TOKEN: 'stand-in' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d.toString()));
  child.stderr!.on('data', (d) => (output += d.toString()));
  const record: HostRecord = { statuses: [], variables: {}, variableIds: [], actionIds: [], feedbackIds: [], presets: [], feedbacks: {}, calls: [] };
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const send = (msg: CallMessage | ResponseMessage) => child.send(msg);
  const host: StandInHost = {
    record,
    call<T>(name: string, payload: unknown, timeoutMs = 10_000): Promise<T> {
      const callbackId = nextId++;
      return new Promise<T>((resolve, reject) => {
        const t = setTimeout(() => {
          pending.delete(callbackId);
          reject(new Error(`the module did not answer ${name} in ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        pending.set(callbackId, { resolve: (v) => (clearTimeout(t), resolve(v as T)), reject: (e) => (clearTimeout(t), reject(e)) });
        send({ direction: 'call', name, payload: JSON.stringify(payload), callbackId });
      });
    },
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.removeAllListeners('exit');
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  };

  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => rejectStart(new Error(`the module did not register in 20 s; output:\n${output}`)), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`the module exited with ${code}; output:\n${output}`));
    });
    child.on('message', (raw) => {
      const msg = raw as CallMessage | ResponseMessage;
      if (msg.direction === 'response') {
        const p = pending.get(msg.callbackId);
        pending.delete(msg.callbackId);
        const data = msg.payload ? JSON.parse(msg.payload) : undefined;
        if (msg.success) p?.resolve(data);
        else p?.reject(new Error(data?.message ?? JSON.stringify(data)));
        return;
      }
      const payload = msg.payload ? JSON.parse(msg.payload) : undefined;
      record.calls.push({ name: msg.name, payload });
      switch (msg.name) {
        case 'register':
          clearTimeout(timer);
          send({ direction: 'response', callbackId: msg.callbackId!, success: true });
          resolveStart(host);
          return;
        case 'set-status':
          record.statuses.push(payload);
          break;
        case 'setVariableDefinitions':
          record.variableIds = payload.variables.map((v: { id: string }) => v.id);
          for (const v of payload.newValues ?? []) record.variables[v.id] = v.value;
          break;
        case 'setVariableValues':
          for (const v of payload.newValues) record.variables[v.id] = v.value;
          break;
        case 'setActionDefinitions':
          record.actionIds = payload.actions.map((a: { id: string }) => a.id);
          break;
        case 'setFeedbackDefinitions':
          record.feedbackIds = payload.feedbacks.map((f: { id: string }) => f.id);
          break;
        case 'setPresetDefinitions':
          record.presets = payload.presets;
          break;
        case 'updateFeedbackValues':
          for (const v of payload.values) record.feedbacks[v.id] = v.value;
          break;
      }
      if (msg.callbackId)
        send({
          direction: 'response',
          callbackId: msg.callbackId,
          success: false,
          payload: JSON.stringify({ message: `stand-in host: no answer for ${msg.name}` }),
        });
    });
  });
}
