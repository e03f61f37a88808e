// The subset of pbf 3 used to read the city list (the package ships no types).
declare module 'pbf' {
  export default class Pbf {
    constructor(buf: Uint8Array);
    pos: number;
    length: number;
    readMessage<T>(read: (tag: number, result: T, pbf: Pbf) => void, result: T): T;
    readString(): string;
    readVarint(): number;
    readSVarint(): number;
  }
}
