// An example relay: the small web server an agency runs beside the service.
// It sends messages (POST /ag/1.2/message), with a common messagebase or an
// approved brand template (sendTemplate), receives delivery results
// (POST <webhook>/msgstatus), user events (POST <moMsgWebhookUrl>/<carrier>)
// and change notifications (POST <webhook>), and answers a user's text message
// within the session, using the event's replyId.
//
// test/e2e/relay-example.test.ts runs it against the emulator with
// examples/relay/seed.yaml (docs/emulator.md, "Testing your relay").

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** Who the relay sends as. */
export interface RelayConfig {
  /** Base URL of the service (the emulator's URL). */
  serviceUrl: string;
  /** Bearer token for the agency messaging interface. */
  token: string;
  agencyId: string;
  agencyKey: string;
  brandKey: string;
  /** Echo a user's text back in a session message (default true). */
  echo?: boolean;
}

/** A delivery status item as the relay receives it. */
export interface StatusItem {
  clientMsgId: string;
  status: 'success' | 'fail';
  timestamp: string;
  error?: { code: string; message?: string };
  autoReplyMsgId?: string;
  postbackId?: string;
  userContact?: string;
  chatbotId?: string;
  bill?: number;
}

/** A user-originated event as the relay receives it. */
export interface UserEvent {
  replyId: string;
  eventType: 'newUser' | 'message' | 'response';
  postbackId?: string;
  postbackData?: string;
  displayText?: string;
  messageBody?: { textMessage?: string; fileMessage?: unknown; geolocationPushMessage?: unknown };
  userContact: string;
  chatbotId: string;
  timestamp: string;
}

/** A message to send; the relay adds agencyId, agencyKey and brandKey. */
export interface Outgoing {
  clientMsgId: string;
  chatbotId: string;
  messagebaseId: string;
  userContact: string;
  body: Record<string, string>;
  replyId?: string;
  [field: string]: unknown;
}

/** A message that uses a brand template: the template's variables instead of a body. */
export interface TemplateOutgoing {
  clientMsgId: string;
  chatbotId: string;
  /** The template's id, `U<brandId>-<custTmpltId>`. */
  messagebaseId: string;
  userContact: string;
  /** A value for each `{{name}}` of the template, by name. */
  variables: Record<string, string>;
  /** The template form's productCode; default `tmplt` (text forms). */
  productCode?: string;
}

/** The service's answer to a send. */
export interface SendAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A running relay. */
export class Relay {
  /** Every msgstatus call, one array per call, in arrival order. */
  readonly statusBatches: StatusItem[][] = [];
  /** Every user event, with the carrier segment it arrived under. */
  readonly events: (UserEvent & { carrier: string })[] = [];
  /** Every notification (notiType logo, agencyKey, autoreplymsg). */
  readonly notifications: Record<string, unknown>[] = [];
  /** Answers to the session replies the relay sent on its own. */
  readonly replies: SendAnswer[] = [];
  private waiters: (() => void)[] = [];
  private replyCount = 0;

  private constructor(
    private readonly config: RelayConfig,
    private readonly server: Server,
    /** `http://127.0.0.1:PORT`: give `<url>` as the agency webhook and `<url>/mo` as the room's moMsgWebhookUrl. */
    readonly url: string,
  ) {}

  /** Start listening on 127.0.0.1 (port 0: any free port). */
  static async start(config: RelayConfig, port = 0): Promise<Relay> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const relay = new Relay(config, server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      relay
        .receive(req)
        .then((status) => res.writeHead(status).end())
        .catch(() => res.writeHead(400).end());
    });
    return relay;
  }

  /** Every status item received so far. */
  get statuses(): StatusItem[] {
    return this.statusBatches.flat();
  }

  /** Send a message as the configured agency. */
  async send(message: Outgoing): Promise<SendAnswer> {
    const { agencyId, agencyKey, brandKey } = this.config;
    const res = await request(`${this.config.serviceUrl}/ag/1.2/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...message, agencyId, agencyKey, brandKey }),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  }

  /**
   * Send with an approved brand template: its messagebaseId, its form's
   * productCode (`tmplt` for a text form), and a value for each of its
   * `{{variables}}`, as body fields named after them.
   */
  sendTemplate(message: TemplateOutgoing): Promise<SendAnswer> {
    const { variables, ...rest } = message;
    return this.send({ productCode: 'tmplt', ...rest, body: variables });
  }

  /** Resolve once `check` holds (checked on every arrival), or reject after `timeoutMs`. */
  async until<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined && value !== false) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('relay: timed out waiting for a webhook call');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Stop listening. */
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage): Promise<number> {
    if (req.method !== 'POST') return 405;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
    const path = new URL(req.url ?? '/', this.url).pathname;
    if (path === '/msgstatus') this.statusBatches.push(body as StatusItem[]);
    else if (path.startsWith('/mo/')) {
      const carrier = path.slice('/mo/'.length);
      for (const event of body as UserEvent[]) {
        this.events.push({ ...event, carrier });
        if (event.eventType === 'message' && event.messageBody?.textMessage !== undefined && this.config.echo !== false) void this.echo(event);
      }
    } else this.notifications.push(...(body as Record<string, unknown>[]));
    for (const wake of this.waiters.splice(0)) wake();
    return 200;
  }

  /** Answer a text within the session: the replyId makes it a session message. */
  private async echo(event: UserEvent): Promise<void> {
    const answer = await this.send({
      clientMsgId: `echo-${++this.replyCount}`,
      chatbotId: event.chatbotId,
      messagebaseId: 'SCS00000',
      userContact: event.userContact,
      replyId: event.replyId,
      body: { description: `You said: ${event.messageBody?.textMessage ?? ''}` },
    });
    this.replies.push(answer);
    for (const wake of this.waiters.splice(0)) wake();
  }
}

