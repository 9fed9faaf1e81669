/**
 * The parts of d3-sankey and d3-hierarchy Sightline uses, typed here because their @types packages are not
 * installed. Kept to what the layouts in sankey/ and sunburst/ call.
 */
declare module 'd3-sankey' {
  export interface SankeyNodeProps {
    x0: number
    x1: number
    y0: number
    y1: number
    value: number
    depth: number
    index: number
  }
  export interface SankeyLinkProps<N> {
    source: N & SankeyNodeProps
    target: N & SankeyNodeProps
    value: number
    width: number
    y0: number
    y1: number
  }
  export interface SankeyGraph<N, L> {
    nodes: (N & SankeyNodeProps)[]
    links: (L & SankeyLinkProps<N>)[]
  }
  export interface SankeyLayout<N, L> {
    (graph: { nodes: N[]; links: L[] }): SankeyGraph<N, L>
    nodeId(id: (node: N) => string | number): this
    nodeWidth(width: number): this
    nodePadding(padding: number): this
    nodeAlign(align: (node: SankeyNodeProps, n: number) => number): this
    nodeSort(sort: ((a: N & SankeyNodeProps, b: N & SankeyNodeProps) => number) | null | undefined): this
    extent(extent: [[number, number], [number, number]]): this
    iterations(iterations: number): this
  }
  export function sankey<N, L>(): SankeyLayout<N, L>
  export function sankeyLeft(node: SankeyNodeProps, n: number): number
  export function sankeyJustify(node: SankeyNodeProps, n: number): number
}

declare module 'd3-hierarchy' {
  export interface HierarchyNode<T> {
    data: T
    depth: number
    height: number
    value?: number
    parent: HierarchyNode<T> | null
    children?: HierarchyNode<T>[]
    sum(value: (d: T) => number): this
    sort(compare: (a: HierarchyNode<T>, b: HierarchyNode<T>) => number): this
    descendants(): this[]
    ancestors(): this[]
  }
  export interface HierarchyRectangularNode<T> extends HierarchyNode<T> {
    x0: number
    x1: number
    y0: number
    y1: number
    parent: HierarchyRectangularNode<T> | null
    children?: HierarchyRectangularNode<T>[]
  }
  export function hierarchy<T>(data: T, children?: (d: T) => T[] | undefined): HierarchyNode<T>
  export interface PartitionLayout<T> {
    (root: HierarchyNode<T>): HierarchyRectangularNode<T>
    size(size: [number, number]): this
    padding(padding: number): this
  }
  export function partition<T>(): PartitionLayout<T>
}
