/**
 * The part of smpp 0.5 (farhadi/node-smpp, CommonJS, no types) this code uses. PDU fields are
 * the SMPP specification's names; a decoded short_message is {udh?, message} (message decoded
 * by the library from data_coding) or a Buffer when the library knows no decoder.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface DecodedMessage {
    udh?: Buffer[];
    message: string | Buffer;
  }

  export interface PDU {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    command_length: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
    // Parameters and TLVs by their SMPP names.
    [field: string]: any;
  }

  export interface PDUConstructor {
    new (command: string, options?: Record<string, unknown>): PDU;
    /** Parses one whole PDU. */
    new (buffer: Buffer): PDU;
    /** The longest command_length read; a longer PDU is a connection error (default 16384). */
    maxLength: number;
  }

  export type ResponseCallback = (pdu: PDU) => void;

  export interface Session extends EventEmitter {
    socket: Socket;
    sequence: number;
    send(
      pdu: PDU,
      responseCallback?: ResponseCallback,
      sendCallback?: ResponseCallback,
    ): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(
      options: Record<string, unknown>,
      responseCallback?: ResponseCallback,
    ): boolean;
    submit_sm(
      options: Record<string, unknown>,
      responseCallback?: ResponseCallback,
    ): boolean;
    deliver_sm(
      options: Record<string, unknown>,
      responseCallback?: ResponseCallback,
    ): boolean;
    enquire_link(
      options?: Record<string, unknown>,
      responseCallback?: ResponseCallback,
    ): boolean;
    unbind(
      options?: Record<string, unknown>,
      responseCallback?: ResponseCallback,
    ): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  interface Smpp {
    connect(options: {
      host: string;
      port: number;
      [option: string]: unknown;
    }): Session;
    createServer(listener?: (session: Session) => void): Server;
    PDU: PDUConstructor;
    errors: Record<string, number>;
    /** The library's GSM 03.38 coder (table 0: default alphabet; 1–3: national shift tables). */
    gsmCoder: {
      encode(text: string, table: number): Buffer;
      decode(octets: Buffer, table: number): string;
    };
  }

  const smpp: Smpp;
  export default smpp;
}
