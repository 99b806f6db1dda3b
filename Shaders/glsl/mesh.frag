#version 330 core
// Shades a mesh fragment with its material and the scene's lights; writes linear, premultiplied-free RGBA.
#include "lighting.glsl"

in vec3 vWorldPosition;
in vec3 vNormal;
in vec2 vTexcoord;
in vec4 vColor;
in vec4 vTangent;

// Compile-time switches (see SceneRenderer.ProgramKey): the software rasteriser executes both sides of
// a branch under a mask, so unused lighting models and texture fetches are compiled out instead.
const int uLightingModel = LIGHTING_MODEL;
// Each material property is a colour (or scalar) multiplied by an optional texture.
uniform vec4 uDiffuse;            // linear rgb, a
#ifdef USE_DIFFUSE_MAP
const bool uUseDiffuseMap = true;
#else
const bool uUseDiffuseMap = false;
#endif
uniform sampler2D uDiffuseMap;    // sRGB texture: decoded to linear on fetch
uniform vec3 uSpecular;
#ifdef USE_SPECULAR_MAP
const bool uUseSpecularMap = true;
#else
const bool uUseSpecularMap = false;
#endif
uniform sampler2D uSpecularMap;
uniform vec3 uEmission;
#ifdef USE_EMISSION_MAP
const bool uUseEmissionMap = true;
#else
const bool uUseEmissionMap = false;
#endif
uniform sampler2D uEmissionMap;
#ifdef USE_NORMAL_MAP
const bool uUseNormalMap = true;
#else
const bool uUseNormalMap = false;
#endif
uniform sampler2D uNormalMap;     // tangent-space normals, linear
uniform float uNormalScale;
uniform float uOcclusion;
#ifdef USE_OCCLUSION_MAP
const bool uUseOcclusionMap = true;
#else
const bool uUseOcclusionMap = false;
#endif
uniform sampler2D uOcclusionMap;
uniform int uOcclusionChannel;
uniform float uMetalness;
#ifdef USE_METALNESS_MAP
const bool uUseMetalnessMap = true;
#else
const bool uUseMetalnessMap = false;
#endif
uniform sampler2D uMetalnessMap;  // channel uMetalnessChannel
uniform int uMetalnessChannel;
uniform float uRoughness;
#ifdef USE_ROUGHNESS_MAP
const bool uUseRoughnessMap = true;
#else
const bool uUseRoughnessMap = false;
#endif
uniform sampler2D uRoughnessMap;  // channel uRoughnessChannel
uniform int uRoughnessChannel;
uniform float uShininess;
uniform float uOpacity;           // material transparency x node opacity
#ifdef USE_VERTEX_COLOR
const bool uUseVertexColor = true;
#else
const bool uUseVertexColor = false;
#endif
#ifdef HAS_TANGENTS
const bool uHasTangents = true;
#else
const bool uHasTangents = false;
#endif

uniform vec3 uCameraPosition;
uniform vec4 uFogColor;           // linear rgb, a = 1 when fog is on
uniform vec3 uFog;                // start, end, density exponent

out vec4 fragColor;

float channel(vec4 texel, int c) { return texel[clamp(c, 0, 3)]; }

// The shading normal: geometric normal, flipped for back faces, perturbed by the normal map.
vec3 shadingNormal(vec3 view) {
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    if (!uUseNormalMap) return n;
    vec3 m = texture(uNormalMap, vTexcoord).xyz * 2.0 - 1.0;
    m.xy *= uNormalScale;
    vec3 t;
    vec3 b;
    if (uHasTangents && dot(vTangent.xyz, vTangent.xyz) > 1e-12) {
        t = normalize(vTangent.xyz - n * dot(n, vTangent.xyz));
        b = cross(n, t) * (vTangent.w < 0.0 ? -1.0 : 1.0);
    } else {
        // No tangents: build the cotangent frame from screen-space derivatives (Schueler 2013, "Normal Mapping
        // Without Precomputed Tangents").
        vec3 dp1 = dFdx(vWorldPosition);
        vec3 dp2 = dFdy(vWorldPosition);
        vec2 duv1 = dFdx(vTexcoord);
        vec2 duv2 = dFdy(vTexcoord);
        vec3 dp2perp = cross(dp2, n);
        vec3 dp1perp = cross(n, dp1);
        t = dp2perp * duv1.x + dp1perp * duv2.x;
        b = dp2perp * duv1.y + dp1perp * duv2.y;
        float scale = inversesqrt(max(max(dot(t, t), dot(b, b)), 1e-20));
        t *= scale;
        b *= scale;
    }
    return normalize(mat3(t, b, n) * m);
}

void main() {
    vec4 base = uDiffuse;
    if (uUseDiffuseMap) base *= texture(uDiffuseMap, vTexcoord);
    if (uUseVertexColor) base *= vColor;
    float alpha = base.a * uOpacity;

    Surface s;
    s.position = vWorldPosition;
    s.view = normalize(uCameraPosition - vWorldPosition);
    s.normal = shadingNormal(s.view);
    s.diffuse = base.rgb;
    s.specular = uSpecular * (uUseSpecularMap ? texture(uSpecularMap, vTexcoord).rgb : vec3(1.0));
    s.shininess = max(uShininess, 1.0);
    s.metalness = clamp(uMetalness * (uUseMetalnessMap ? channel(texture(uMetalnessMap, vTexcoord), uMetalnessChannel) : 1.0), 0.0, 1.0);
    s.roughness = clamp(uRoughness * (uUseRoughnessMap ? channel(texture(uRoughnessMap, vTexcoord), uRoughnessChannel) : 1.0), 0.03, 1.0);
    s.occlusion = uOcclusion * (uUseOcclusionMap ? channel(texture(uOcclusionMap, vTexcoord), uOcclusionChannel) : 1.0);

    vec3 color = shade(uLightingModel, s);
    color += uEmission * (uUseEmissionMap ? texture(uEmissionMap, vTexcoord).rgb : vec3(1.0));

    if (uFogColor.a > 0.0 && uFog.y > uFog.x) {
        // SceneKit's fog: 0 before start, 1 after end, ((d - start) / (end - start))^exponent between.
        float d = length(uCameraPosition - vWorldPosition);
        float f = pow(clamp((d - uFog.x) / (uFog.y - uFog.x), 0.0, 1.0), max(uFog.z, 1e-3));
        color = mix(color, uFogColor.rgb, f);
    }
    fragColor = vec4(color, alpha);
}
