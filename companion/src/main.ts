/**
 * The Companion module (the thin adapter): Companion's `InstanceBase` around `CuecastControl` (./control.ts). It
 * checks the settings (./config.ts), starts one control per configuration, turns the control's status into the
 * connection's status, its changed values into `setVariableValues` (and re-checks the feedbacks), and hands every
 * action to the control (a refusal fails the action with the server's words and is logged).
 * Built into dist/main.cjs (`npm run build -w companion`); companion/manifest.json names it as the entrypoint.
 */
import { InstanceBase, InstanceStatus, runEntrypoint, type SomeCompanionConfigField } from '@companion-module/base';
import { CONFIG_FIELDS, ConfigError, parseConfig } from './config';
import { CuecastControl, type ControlStatus } from './control';
import { actionDefinitions, feedbackDefinitions, presetDefinitions } from './definitions';
import { VARIABLES } from './values';

/** The settings Companion stores (the token is a secret, stored apart). */
type Config = { url?: string; eventId?: string; table?: string };
type Secrets = { token?: string };

/** Companion's status for the control's. */
function companionStatus(s: ControlStatus): [InstanceStatus, string | null] {
  switch (s.kind) {
    case 'ok':
      return [InstanceStatus.Ok, null];
    case 'connecting':
      return [InstanceStatus.Connecting, null];
    case 'offline':
      return [InstanceStatus.Disconnected, s.message];
    case 'refused':
      return [/token/i.test(s.message) ? InstanceStatus.AuthenticationFailure : InstanceStatus.ConnectionFailure, s.message];
  }
}

/** One Companion connection to a cuecast table. */
export class CuecastInstance extends InstanceBase<Config, Secrets> {
  private control: CuecastControl | null = null;

  override async init(config: Config, _isFirstInit: boolean, secrets: Secrets): Promise<void> {
    this.setActionDefinitions(actionDefinitions(() => this.control));
    this.setFeedbackDefinitions(feedbackDefinitions(() => this.control));
    this.setVariableDefinitions(VARIABLES.map(([variableId, name]) => ({ variableId, name })));
    this.setPresetDefinitions(presetDefinitions(this.label));
    this.connect(config, secrets);
  }

  override async configUpdated(config: Config, secrets: Secrets): Promise<void> {
    this.setPresetDefinitions(presetDefinitions(this.label)); // the label may have changed
    this.connect(config, secrets);
  }

  override async destroy(): Promise<void> {
    this.control?.stop();
    this.control = null;
  }

  override getConfigFields(): SomeCompanionConfigField[] {
    return CONFIG_FIELDS.map((f) => ({
      type: f.secret ? 'secret-text' : 'textinput',
      id: f.id,
      label: f.label,
      tooltip: f.tooltip,
      default: f.default,
      width: f.width,
    }));
  }

  /** (Re)connect with new settings; bad settings stop the connection and say which field. */
  private connect(config: Config, secrets: Secrets): void {
    this.control?.stop();
    this.control = null;
    let parsed;
    try {
      parsed = parseConfig({ ...config, ...secrets });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      this.updateStatus(InstanceStatus.BadConfig, e.message);
      return;
    }
    const control = new CuecastControl(parsed);
    this.control = control;
    control.onStatus((s) => this.updateStatus(...companionStatus(s)));
    control.onValues((changed) => {
      this.setVariableValues(changed);
      this.checkFeedbacks();
    });
    this.updateStatus(InstanceStatus.Connecting);
    this.setVariableValues(control.values);
    control.start();
  }
}

runEntrypoint(CuecastInstance, []);
