// happy-dom defines `nodeName` on each node subclass and leaves Node.prototype's getter returning
// "". Browsers have one polymorphic getter on Node.prototype, which DOMPurify (3.4) reads directly;
// under happy-dom it then sees every element as "" and strips the wrong things. Make the base
// getter dispatch to the subclass's, as in a browser. Import first in happy-dom tests that sanitise.
const base = Object.getOwnPropertyDescriptor(Node.prototype, "nodeName");

if (base?.get && !(base.get as { polymorphic?: boolean }).polymorphic) {
  const baseGet = base.get;
  const get = function (this: Node): string {
    for (let proto = Object.getPrototypeOf(this); proto && proto !== Node.prototype; proto = Object.getPrototypeOf(proto)) {
      const own = Object.getOwnPropertyDescriptor(proto, "nodeName");
      if (own?.get) return own.get.call(this) as string;
    }
    return baseGet.call(this) as string;
  };
  (get as { polymorphic?: boolean }).polymorphic = true;
  Object.defineProperty(Node.prototype, "nodeName", { ...base, get });
}

export {};
