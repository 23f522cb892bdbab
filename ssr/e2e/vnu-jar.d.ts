/** vnu-jar's main export: the path of vnu.jar (a String object). */
declare module "vnu-jar" {
  const vnuJar: string;
  export default vnuJar;
}
